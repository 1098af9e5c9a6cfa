! corpus: class=arg expect=bad np=3
! Rank 0 calls MPI_SEND with dest equal to the size of MPI_COMM_WORLD
! (one past the last valid rank); the last rank posts the matching
! receive.  Breaks MPI 4.0 sec. 3.2.3: dest must be a rank in
! [0, size-1] of the communicator, or MPI_PROC_NULL.  The default error
! handler (MPI_ERRORS_ARE_FATAL) is in use, ierror is never returned.
! MPICH 4.0.2 aborts: Invalid rank.
program send_dest_size
  use mpi
  implicit none
  integer :: rank, nproc, ierror
  double precision :: x

  x = 2.5d0
  call MPI_INIT(ierror)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierror)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nproc, ierror)
  if (rank == 0) then
     call MPI_SEND(x, 1, MPI_DOUBLE_PRECISION, nproc, 5, MPI_COMM_WORLD, &
                   ierror)
  else if (rank == nproc - 1) then
     call MPI_RECV(x, 1, MPI_DOUBLE_PRECISION, 0, 5, MPI_COMM_WORLD, &
                   MPI_STATUS_IGNORE, ierror)
  end if
  call MPI_BARRIER(MPI_COMM_WORLD, ierror)
  call MPI_FINALIZE(ierror)
end program send_dest_size
