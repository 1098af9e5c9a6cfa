! thr-omp-f - MPI_THREAD_MULTIPLE from Fortran (mpi module) with OpenMP:
! in each of 3 parallel regions of 3 threads, every OpenMP thread runs a
! ring MPI_Sendrecv on its own tag, sending how many exchanges the rank's
! threads had started (an order that differs in every run). Each thread's
! receptions are printed after the regions, thread by thread.
program thr_omp_f
  use mpi
  use omp_lib
  implicit none
  integer, parameter :: nt = 3, regions = 3
  integer :: ierr, provided, rank, nprocs, left, right, r, t, v, inval
  integer :: started, got(regions, 0:nt-1)
  integer :: status(MPI_STATUS_SIZE)

  call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided, ierr)
  if (provided /= MPI_THREAD_MULTIPLE) call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  started = 0
  do r = 1, regions
!$omp parallel num_threads(nt) private(t, v, inval, status, ierr)
    t = omp_get_thread_num()
!$omp atomic capture
    v = started
    started = started + 1
!$omp end atomic
    call MPI_Sendrecv(v, 1, MPI_INTEGER, right, t, inval, 1, MPI_INTEGER, &
                      left, t, MPI_COMM_WORLD, status, ierr)
    got(r, t) = inval
!$omp end parallel
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end do
  do t = 0, nt - 1
    write (*, '(a,i0,a,i0,a,3(1x,i0))') 'rank ', rank, ' omp thread ', t, &
      ':', got(:, t)
  end do
  call MPI_Finalize(ierr)
end program thr_omp_f
