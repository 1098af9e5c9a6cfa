! corpus: class=type expect=bad np=2
! Rank 0 sends 8 integers; rank 1 receives them with count 8 into the
! common-block array b(4), which is followed in the common block by
! guard(4).  Breaks MPI 4.0 sec. 3.2.4 (and 3.3.1): the receive buffer
! must hold count elements of the datatype, but INTEGER b(4) is received
! as 8 MPI_INTEGER; 16 bytes are written past the end of b.
! MPICH 4.0.2 does not detect it: completes; the 4 extra integers
! overwrite guard(1..4) of rank 1, which then prints the changed values.
program integer_recv_overrun
  use mpi
  implicit none
  integer :: rank, ierr, i
  integer :: a(8)
  integer :: b(4), guard(4)
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
