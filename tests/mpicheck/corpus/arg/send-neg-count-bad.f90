! corpus: class=arg expect=bad np=2
! After a correct exchange, the last rank calls MPI_SEND with count -1
! towards rank 0, which posts a receive of 4 integers.  Breaks MPI 4.0
! sec. 3.2.2: count must be a non-negative integer.  The default error
! handler (MPI_ERRORS_ARE_FATAL) is in use, ierror is never returned.
! MPICH 4.0.2 aborts: Invalid count.
program send_neg_count
  use mpi
  implicit none
  integer :: rank, nproc, ierror
  integer :: buf(4)

  buf = (/ 1, 2, 3, 4 /)
  call MPI_INIT(ierror)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierror)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nproc, ierror)
  if (rank == 0) then
     call MPI_SEND(buf, 4, MPI_INTEGER, nproc - 1, 1, MPI_COMM_WORLD, ierror)
  else if (rank == nproc - 1) then
     call MPI_RECV(buf, 4, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, &
                   MPI_STATUS_IGNORE, ierror)
  end if

  if (rank == nproc - 1) then
     call MPI_SEND(buf, -1, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, ierror)
  else if (rank == 0) then
     call MPI_RECV(buf, 4, MPI_INTEGER, nproc - 1, 2, MPI_COMM_WORLD, &
                   MPI_STATUS_IGNORE, ierror)
  end if
  call MPI_FINALIZE(ierror)
end program send_neg_count
