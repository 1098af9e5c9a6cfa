! corpus: class=type expect=bad np=2
! Rank 0 sends a module array of 4 integer(kind=8) to rank 1, which
! receives it with MPI_Irecv + MPI_Wait into another integer(kind=8)
! module array; both sides describe the buffers as 4 MPI_INTEGER.  Breaks
! MPI 4.0 sec. 3.3.1: the datatype must match the Fortran type of the
! buffer (INTEGER(KIND=8) <-> MPI_INTEGER8, sec. 3.2.2 / 19.1.9); only the
! first 16 bytes (a(1), a(2)) are transferred.
! MPICH 4.0.2 does not detect it: completes, rank 1 prints that b(3) and
! b(4) are 0 (wrong values).
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
     call MPI_Send(a, 4, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
     call MPI_Irecv(b, 4, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, req, ierr)
     call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
     do i = 1, 4
        if (b(i) /= a(i)) print '(a,i0,a,i0,a,i0)', 'rank 1: b(', i, &
             ') = ', b(i), ', expected ', a(i)
     end do
  end if
  call MPI_Finalize(ierr)
end program int8_integer_irecv
