! corpus: class=type expect=bad np=3
! Rank 0 broadcasts an integer array of 8 elements, described as 4
! MPI_DOUBLE_PRECISION (the same number of bytes).  Breaks MPI 4.0 sec.
! 3.3.1 (and 6.4): the buffer is INTEGER, so the datatype must be
! MPI_INTEGER (table of sec. 3.2.2); type matching is by type, not by size.
! MPICH 4.0.2 does not detect it: completes silently and, since the bytes
! are copied unchanged, every rank even ends up with the right values.
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
  call MPI_Bcast(v, 4, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  do i = 1, 8
     if (v(i) /= 11 * i) print '(a,i0,a,i0,a,i0)', 'rank ', rank, &
          ': v(', i, ') = ', v(i)
  end do
  call MPI_Finalize(ierr)
end program integer_dp_bcast
