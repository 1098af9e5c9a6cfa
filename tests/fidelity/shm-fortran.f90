! shm-fortran - a shared-memory window from Fortran (mpi module):
! MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), MPI_Win_allocate_shared and
! MPI_Win_shared_query return addresses (INTEGER(MPI_ADDRESS_KIND)) that
! C_F_POINTER turns into arrays. Each rank fills its part, and after
! MPI_Win_sync + MPI_Barrier reads its right neighbour's part and prints
! what it found, then stores into that part and reads its own back after
! MPI_Win_fence.
program shm_fortran
  use mpi
  use, intrinsic :: iso_c_binding
  implicit none
  integer, parameter :: n = 20
  integer :: ierr, node, rank, nprocs, right, win, unit, i
  integer(kind=MPI_ADDRESS_KIND) :: bytes, addr, raddr, rbytes
  integer, pointer :: mine(:), theirs(:)

  call MPI_Init(ierr)
  call MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, &
                           MPI_INFO_NULL, node, ierr)
  call MPI_Comm_rank(node, rank, ierr)
  call MPI_Comm_size(node, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  bytes = 4 * n
  call MPI_Win_allocate_shared(bytes, 4, MPI_INFO_NULL, node, addr, win, &
                               ierr)
  call c_f_pointer(transfer(addr, c_null_ptr), mine, [n])
  call MPI_Win_shared_query(win, right, rbytes, unit, raddr, ierr)
  call c_f_pointer(transfer(raddr, c_null_ptr), theirs, [n])

  call MPI_Win_lock_all(0, win, ierr)
  do i = 1, n
    mine(i) = rank * 100 + i * i
  end do
  call MPI_Win_sync(win, ierr)
  call MPI_Barrier(node, ierr)
  call MPI_Win_sync(win, ierr)
  write (*, '(a,i0,a,i0,a,i0,a,3i8,a,i0)') 'rank ', rank, ': part of ', &
    right, ' (', rbytes, ' bytes):', theirs(1), theirs(n / 2), theirs(n), &
    ' sum ', sum(theirs)
  call MPI_Win_unlock_all(win, ierr)

  call MPI_Win_fence(0, win, ierr)
  theirs(1) = -rank - 1
  call MPI_Win_fence(0, win, ierr)
  write (*, '(a,i0,a,i0,a,i0)') 'rank ', rank, ': own first ', mine(1), &
    ' sum ', sum(mine)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Win_free(win, ierr)
  call MPI_Finalize(ierr)
end program shm_fortran
