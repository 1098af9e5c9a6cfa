! corpus: class=type expect=ok np=2
! Rank 0 sends a module array of 4 integer(kind=8) to rank 1, which
! receives it with MPI_Irecv + MPI_Wait into another integer(kind=8)
! module array, both described as 4 MPI_INTEGER8, the type matching the
! buffers (correct twin of int8-integer-irecv-bad.f90).
module int8_bufs
  implicit none
  integer(kind=8) :: a(4) = (/ 100_8, 200_8, 300_8, 400_8 /)
  integer(kind=8) :: b(4) = 0_8
end module int8_bufs

program int8_integer_irecv
  use mpi
  use int8_bufs
  implicit none
  integer :: rank, ierr, req, i

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (rank == 0) then
     call MPI_Send(a, 4, MPI_INTEGER8, 1, 7, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
     call MPI_Irecv(b, 4, MPI_INTEGER8, 0, 7, MPI_COMM_WORLD, req, ierr)
     call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
     do i = 1, 4
        if (b(i) /= a(i)) print '(a,i0,a,i0,a,i0)', 'rank 1: b(', i, &
             ') = ', b(i), ', expected ', a(i)
     end do
  end if
  call MPI_Finalize(ierr)
end program int8_integer_irecv
