! Classes 4 and 5 through the Fortran bindings (mpi module): a struct type
! with MPI_LB/MPI_UB markers built by MPI_TYPE_CREATE_STRUCT, received
! into a nonblocking MPI_IRECV whose type is freed at once and completed
! by MPI_WAITALL; a struct of absolute addresses (MPI_GET_ADDRESS) sent
! and received with MPI_BOTTOM; MPI_TYPE_GET_EXTENT of each. Rank r sends
! to rank r+1. Prints what arrived.
program type_fortran
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, left, right, i, t, u
  integer :: reqs(2), bl(4), types(4)
  integer(kind=MPI_ADDRESS_KIND) :: d(4), lb, ext
  integer :: sbuf(16), rbuf(16), a, b(3)
  double precision :: x

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)

  ! LB at -4 bytes, 2 integers at 0, 1 at 12, UB at 20
  bl = (/ 1, 2, 1, 1 /)
  d = (/ -4_MPI_ADDRESS_KIND, 0_MPI_ADDRESS_KIND, 12_MPI_ADDRESS_KIND, &
         20_MPI_ADDRESS_KIND /)
  types = (/ MPI_LB, MPI_INTEGER, MPI_INTEGER, MPI_UB /)
  call MPI_TYPE_CREATE_STRUCT(4, bl, d, types, t, ierr)
  call MPI_TYPE_COMMIT(t, ierr)
  call MPI_TYPE_GET_EXTENT(t, lb, ext, ierr)
  print '(a,i0,a,i0)', 'markers: lb ', lb, ' extent ', ext
  do i = 1, 16
    sbuf(i) = 100 * rank + i
    rbuf(i) = -1
  end do
  call MPI_IRECV(rbuf(2), 2, t, left, 1, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_ISEND(sbuf(2), 2, t, right, 1, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_TYPE_FREE(t, ierr)
  call MPI_WAITALL(2, reqs, MPI_STATUSES_IGNORE, ierr)
  print '(a,16(1x,i0))', 'received:', rbuf

  ! absolute addresses
  a = 10 + rank
  b = (/ 20 + rank, 30 + rank, 40 + rank /)
  x = rank + 0.5d0
  call MPI_GET_ADDRESS(a, d(1), ierr)
  call MPI_GET_ADDRESS(b(2), d(2), ierr)
  call MPI_GET_ADDRESS(x, d(3), ierr)
  bl(1:3) = (/ 1, 2, 1 /)
  types(1:3) = (/ MPI_INTEGER, MPI_INTEGER, MPI_DOUBLE_PRECISION /)
  call MPI_TYPE_CREATE_STRUCT(3, bl, d, types, u, ierr)
  call MPI_TYPE_COMMIT(u, ierr)
  call MPI_SENDRECV_REPLACE(MPI_BOTTOM, 1, u, right, 2, left, 2, &
                            MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  print '(a,4(1x,i0),1x,f6.2)', 'bottom:', a, b, x
  call MPI_TYPE_FREE(u, ierr)
  call MPI_FINALIZE(ierr)
end program type_fortran
