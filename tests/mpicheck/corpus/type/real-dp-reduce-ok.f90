! corpus: class=type expect=ok np=4
! Every rank sums a real array of 4 elements to rank 0 with MPI_Reduce
! (MPI_SUM) in a contained subroutine whose local arrays are the buffers,
! described as 4 MPI_REAL, the type matching the buffers (correct twin of
! real-dp-reduce-bad.f90).
program real_dp_reduce
  use mpi
  implicit none
  integer :: rank, nproc, ierr

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)
  call do_sum()
  call MPI_Finalize(ierr)

contains

  subroutine do_sum()
    real :: x(4), s(4)
    integer :: i

    do i = 1, 4
       x(i) = real(i * (rank + 1))
    end do
    s = 0.0
    call MPI_Reduce(x, s, 4, MPI_REAL, MPI_SUM, 0, &
                    MPI_COMM_WORLD, ierr)
    if (rank == 0) then
       do i = 1, 4
          if (abs(s(i) - real(i * nproc * (nproc + 1) / 2)) > 0.001) &
               print '(a,i0,a,es12.4,a,i0)', 'rank 0: s(', i, ') = ', &
               s(i), ', expected ', i * nproc * (nproc + 1) / 2
       end do
    end if
  end subroutine do_sum

end program real_dp_reduce
