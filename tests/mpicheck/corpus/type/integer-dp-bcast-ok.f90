! corpus: class=type expect=ok np=3
! Rank 0 broadcasts an integer array of 8 elements as 8 MPI_INTEGER, the
! type matching the buffer (correct twin of integer-dp-bcast-bad.f90).
program integer_dp_bcast
  use mpi
  implicit none
  integer :: rank, ierr, i
  integer :: v(8)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  v = 0
  if (rank == 0) then
     do i = 1, 8
        v(i) = 11 * i
     end do
  end if
  call MPI_Bcast(v, 8, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  do i = 1, 8
     if (v(i) /= 11 * i) print '(a,i0,a,i0,a,i0)', 'rank ', rank, &
          ': v(', i, ') = ', v(i)
  end do
  call MPI_Finalize(ierr)
end program integer_dp_bcast
