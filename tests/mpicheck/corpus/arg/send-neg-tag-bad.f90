! corpus: class=arg expect=bad np=4
! Each even rank sends one integer to the next odd rank with MPI_SEND;
! rank 2 uses tag -3, the odd ranks receive with MPI_ANY_TAG.  Breaks
! MPI 4.0 sec. 3.2.3: a send tag must be in [0, MPI_TAG_UB] (MPI_ANY_TAG
! is allowed in receives only).  The default error handler
! (MPI_ERRORS_ARE_FATAL) is in use, ierror is never returned.
! MPICH 4.0.2 aborts: Invalid tag.
program send_neg_tag
  use mpi
  implicit none
  integer :: rank, ierror, tag
  integer :: val

  call MPI_INIT(ierror)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierror)
  val = 100 + rank
  tag = 7
  if (rank == 2) tag = -3
  if (mod(rank, 2) == 0) then
     call MPI_SEND(val, 1, MPI_INTEGER, rank + 1, tag, MPI_COMM_WORLD, ierror)
  else
     call MPI_RECV(val, 1, MPI_INTEGER, rank - 1, MPI_ANY_TAG, &
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
  end if
  call MPI_FINALIZE(ierror)
end program send_neg_tag
