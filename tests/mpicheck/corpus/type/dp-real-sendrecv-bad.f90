! corpus: class=type expect=bad np=2
! Rank 0 sends a double precision array of 4 elements to rank 1; both
! sides describe the buffer as 4 MPI_REAL.  Breaks MPI 4.0 sec. 3.3.1:
! the datatype must match the Fortran type of the buffer variable
! (DOUBLE PRECISION <-> MPI_DOUBLE_PRECISION, table of sec. 3.2.2); only
! the first 16 bytes (a(1), a(2)) are transferred.
! MPICH 4.0.2 does not detect it: completes, rank 1 prints that b(3) and
! b(4) are 0 (wrong values).
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
     call MPI_Send(a, 4, MPI_REAL, 1, 0, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
     call MPI_Recv(b, 4, MPI_REAL, 0, 0, MPI_COMM_WORLD, &
                   MPI_STATUS_IGNORE, ierr)
     do i = 1, 4
        if (b(i) /= a(i)) print '(a,i0,a,f6.2,a,f6.2)', &
             'rank 1: b(', i, ') = ', b(i), ', expected ', a(i)
     end do
  end if
  call MPI_Finalize(ierr)
end program dp_real_sendrecv
