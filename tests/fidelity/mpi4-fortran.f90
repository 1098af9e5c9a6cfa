! MPI-4 from Fortran (the mpi module): MPI_Isendrecv,
! MPI_Isendrecv_replace and MPI_Comm_idup around a ring.
program mpi4_fortran
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, right, left, req, reqs(2), dup, r2
  integer :: sbuf(3), rbuf(3), x
  integer :: st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  sbuf = (/ rank, 10 * rank, -rank /)
  rbuf = 0
  call MPI_Isendrecv(sbuf, 3, MPI_INTEGER, right, 4, rbuf, 3, MPI_INTEGER, &
                     left, 4, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, st, ierr)
  print '(a,i0,a,3(1x,i0))', 'rank ', rank, ': isendrecv', rbuf
  call MPI_Isendrecv_replace(sbuf, 3, MPI_INTEGER, right, 5, left, 5, &
                             MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  print '(a,i0,a,3(1x,i0))', 'rank ', rank, ': replace', sbuf
  call MPI_Comm_idup(MPI_COMM_WORLD, dup, reqs(1), ierr)
  call MPI_Waitall(1, reqs, sts, ierr)
  call MPI_Comm_rank(dup, r2, ierr)
  x = rank + 100
  call MPI_Isendrecv_replace(x, 1, MPI_INTEGER, left, 6, right, 6, dup, &
                             reqs(2), ierr)
  call MPI_Wait(reqs(2), st, ierr)
  print '(a,i0,a,i0,a,i0)', 'rank ', rank, ': idup rank ', r2, ' x ', x
  call MPI_Comm_free(dup, ierr)
  call MPI_Finalize(ierr)
end program mpi4_fortran
