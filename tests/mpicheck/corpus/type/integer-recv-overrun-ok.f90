! corpus: class=type expect=ok np=2
! Rank 0 sends 8 integers; rank 1 receives them with count 8 into the
! common-block array b(8), which is followed in the common block by
! guard(4) (correct twin of integer-recv-overrun-bad.f90: b is large
! enough for the 8 MPI_INTEGER received).
program integer_recv_overrun
  use mpi
  implicit none
  integer :: rank, ierr, i
  integer :: a(8)
  integer :: b(8), guard(4)
  common /rbuf/ b, guard

  do i = 1, 8
     a(i) = 10 * i
  end do
  b = 0
  guard = -1
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (rank == 0) then
     call MPI_Send(a, 8, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
     call MPI_Recv(b, 8, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, &
                   MPI_STATUS_IGNORE, ierr)
     do i = 1, 4
        if (guard(i) /= -1) print '(a,i0,a,i0)', 'rank 1: guard(', i, &
             ') = ', guard(i)
     end do
  end if
  call MPI_Finalize(ierr)
end program integer_recv_overrun
