! corpus: class=type expect=ok np=2
! Rank 0 sends a double precision array of 4 elements to rank 1 as 4
! MPI_DOUBLE_PRECISION, the type matching the buffer (correct twin of
! dp-real-sendrecv-bad.f90).
program dp_real_sendrecv
  use mpi
  implicit none
  integer :: rank, ierr, i
  double precision :: a(4), b(4)

  a = (/ 1.5d0, 2.5d0, 3.5d0, 4.5d0 /)
  b = 0.0d0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (rank == 0) then
     call MPI_Send(a, 4, MPI_DOUBLE_PRECISION, 1, 0, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
     call MPI_Recv(b, 4, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, &
                   MPI_STATUS_IGNORE, ierr)
     do i = 1, 4
        if (b(i) /= a(i)) print '(a,i0,a,f6.2,a,f6.2)', &
             'rank 1: b(', i, ') = ', b(i), ', expected ', a(i)
     end do
  end if
  call MPI_Finalize(ierr)
end program dp_real_sendrecv
