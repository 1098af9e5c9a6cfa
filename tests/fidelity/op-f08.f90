! A user operator through the mpi_f08 module (MPI_Op_create with an
! MPI_User_function of TYPE(C_PTR) vectors): it counts and prints its
! calls; MPI_Allreduce and MPI_Reduce_local run it, and so must the replay.
module opf08mod
  use mpi_f08
  use, intrinsic :: iso_c_binding
  implicit none
  integer :: ncalls = 0
contains
  subroutine imax(invec, inoutvec, n, dtype)
    type(c_ptr), value :: invec, inoutvec
    integer :: n
    type(MPI_Datatype) :: dtype
    integer, pointer :: a(:), b(:)
    integer :: i
    call c_f_pointer(invec, a, [n])
    call c_f_pointer(inoutvec, b, [n])
    ncalls = ncalls + 1
    print '("  op call ",i0,": len ",i0," in ",i0," inout ",i0)', ncalls, n, &
      a(1), b(1)
    do i = 1, n
      b(i) = max(a(i), b(i)) + 1
    end do
  end subroutine
end module

program op_f08
  use mpi_f08
  use opf08mod
  implicit none
  integer :: me, v(4), r(4)
  type(MPI_Op) :: op
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  call MPI_Op_create(imax, .true., op)
  v = (/ 4, 3, 2, 1 /) * (me + 1)
  call MPI_Allreduce(v, r, 4, MPI_INTEGER, op, MPI_COMM_WORLD)
  print '("rank ",i0,": allreduce ",i0," ",i0)', me, r(1), r(4)
  r = 7
  call MPI_Reduce_local(v, r, 4, MPI_INTEGER, op)
  print '("rank ",i0,": local ",i0," calls ",i0)', me, r(1), ncalls
  call MPI_Op_free(op)
  call MPI_Finalize()
end program
