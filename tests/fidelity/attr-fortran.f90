! Attributes from Fortran (the mpi module): MPICH's Fortran bindings
! reach them through internal functions (MPII_Comm_get_attr ...), not
! the C MPI_Comm_get_attr, and the replay's bindings through the replayed
! C call. Predefined attributes (MPI_TAG_UB, MPI_WTIME_IS_GLOBAL, the old
! MPI_ATTR_GET's INTEGER form), a user keyval's value set, got and
! deleted on a communicator and a datatype, a duplicate without it
! (MPI_COMM_NULL_COPY_FN). Prints what it got. Before, the replay
! diverged at the first MPI_COMM_GET_ATTR (the log had no such call).
program attr_fortran
  use mpi
  implicit none
  integer :: ierr, rank, keyval, tkeyval, comm2, dtype, ival
  integer(kind=MPI_ADDRESS_KIND) :: val, tagub, wglob, extra
  logical :: flag
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, tagub, flag, ierr)
  print *, 'rank', rank, 'tag_ub', flag, tagub
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, wglob, flag, &
                         ierr)
  print *, 'rank', rank, 'wtime_is_global', flag, wglob
  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_TAG_UB, ival, flag, ierr)
  print *, 'rank', rank, 'attr_get tag_ub', flag, ival
  extra = 0
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, &
                              MPI_COMM_NULL_DELETE_FN, keyval, extra, ierr)
  val = 1000 + rank
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, keyval, val, ierr)
  val = 0
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, keyval, val, flag, ierr)
  print *, 'rank', rank, 'user attr', flag, val
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm2, ierr)
  call MPI_COMM_GET_ATTR(comm2, keyval, val, flag, ierr)
  print *, 'rank', rank, 'duplicate has it', flag
  call MPI_COMM_FREE(comm2, ierr)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, keyval, ierr)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, keyval, val, flag, ierr)
  print *, 'rank', rank, 'after delete', flag
  call MPI_COMM_FREE_KEYVAL(keyval, ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_NULL_COPY_FN, &
                              MPI_TYPE_NULL_DELETE_FN, tkeyval, extra, ierr)
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, dtype, ierr)
  val = 77 * (rank + 1)
  call MPI_TYPE_SET_ATTR(dtype, tkeyval, val, ierr)
  val = 0
  call MPI_TYPE_GET_ATTR(dtype, tkeyval, val, flag, ierr)
  print *, 'rank', rank, 'type attr', flag, val
  call MPI_TYPE_FREE(dtype, ierr)
  call MPI_TYPE_FREE_KEYVAL(tkeyval, ierr)
  call MPI_FINALIZE(ierr)
end program attr_fortran
