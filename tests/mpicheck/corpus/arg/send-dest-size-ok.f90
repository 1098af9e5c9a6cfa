! corpus: class=arg expect=ok np=3
! Rank 0 calls MPI_SEND with dest equal to size-1, the last rank of
! MPI_COMM_WORLD, which posts the matching receive (correct twin of
! send-dest-size-bad.f90).
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
     call MPI_SEND(x, 1, MPI_DOUBLE_PRECISION, nproc - 1, 5, MPI_COMM_WORLD, &
                   ierror)
  else if (rank == nproc - 1) then
     call MPI_RECV(x, 1, MPI_DOUBLE_PRECISION, 0, 5, MPI_COMM_WORLD, &
                   MPI_STATUS_IGNORE, ierror)
  end if
  call MPI_BARRIER(MPI_COMM_WORLD, ierror)
  call MPI_FINALIZE(ierror)
end program send_dest_size
