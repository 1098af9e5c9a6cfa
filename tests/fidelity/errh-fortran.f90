! Error returns from Fortran: MPI_ERRORS_RETURN, a send to a bad rank, a
! truncated receive (the status MPI sets), a failed MPI_Comm_dup.
program errh_fortran
  use mpi
  implicit none
  integer :: me, ierr, cls, buf(4), st(MPI_STATUS_SIZE), newc, n
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  buf = (/ 1, 2, 3, 4 /)
  call MPI_Send(buf, 1, MPI_INTEGER, 999, 0, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, cls, n)
  print '("rank ",i0,": bad rank: class ",i0)', me, cls
  newc = MPI_COMM_SELF
  call MPI_Comm_dup(MPI_COMM_NULL, newc, ierr)
  call MPI_Error_class(ierr, cls, n)
  print '("rank ",i0,": dup: class ",i0," self ",l1)', me, cls, newc == MPI_COMM_SELF
  if (me == 0) then
    call MPI_Send(buf, 4, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, ierr)
  else if (me == 1) then
    st = -5
    call MPI_Recv(buf, 2, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, st, ierr)
    call MPI_Error_class(ierr, cls, n)
    print '("rank ",i0,": truncated: class ",i0," source ",i0," tag ",i0)', &
      me, cls, st(MPI_SOURCE), st(MPI_TAG)
  end if
  call MPI_Finalize(ierr)
end program
