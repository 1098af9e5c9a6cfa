! A user operator from Fortran (MPI_OP_CREATE with a Fortran subroutine):
! it counts and prints its calls; MPI_ALLREDUCE, MPI_REDUCE and
! MPI_REDUCE_LOCAL run it, and so must the replay.
module opmod
  implicit none
  integer :: ncalls = 0
contains
  subroutine isum(invec, inoutvec, n, dtype)
    integer :: n, dtype
    integer :: invec(n), inoutvec(n)
    integer :: i
    ncalls = ncalls + 1
    print '("  op call ",i0,": len ",i0," in ",i0," inout ",i0)', ncalls, n, &
      invec(1), inoutvec(1)
    do i = 1, n
      inoutvec(i) = inoutvec(i) + 2 * invec(i)
    end do
  end subroutine
end module

program op_fortran
  use mpi
  use opmod
  implicit none
  integer :: me, ierr, op, v(5), r(5)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Op_create(isum, .false., op, ierr)
  v = (/ 1, 2, 3, 4, 5 /) * (me + 1)
  call MPI_Allreduce(v, r, 5, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  print '("rank ",i0,": allreduce ",i0," ",i0)', me, r(1), r(5)
  call MPI_Reduce(v, r, 2, MPI_INTEGER, op, 0, MPI_COMM_WORLD, ierr)
  if (me == 0) print '("rank ",i0,": reduce ",i0)', me, r(1)
  r = 100
  call MPI_Reduce_local(v, r, 5, MPI_INTEGER, op, ierr)
  print '("rank ",i0,": local ",i0," calls ",i0)', me, r(2), ncalls
  call MPI_Op_free(op, ierr)
  call MPI_Finalize(ierr)
end program
