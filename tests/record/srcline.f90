! Calls at known lines from Fortran, for test-record-srcline.sh: each
! call's line has a marker comment "site:NAME" the test finds with grep.
! MPICH's Fortran bindings make the C call: the recorder must name this
! file, not the binding. 2 ranks.
program srcline
  use mpi
  implicit none
  integer :: ierr, rank, req(2), a(4), b(4), i, np
  a = 1
  call MPI_Init(ierr) ! site:init
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr) ! site:comm_rank
  call MPI_Irecv(b, 4, MPI_INTEGER, 1 - rank, 0, MPI_COMM_WORLD, req(1), ierr) ! site:irecv
  call MPI_Isend(a, 4, MPI_INTEGER, 1 - rank, 0, MPI_COMM_WORLD, req(2), ierr) ! site:isend
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr) ! site:waitall
  call srcline_barrier()
  ! The same binding from two lines, in turn, the second at several
  ! depths of the program's stack: each call its own line.
  do i = 1, 3
    call MPI_Comm_size(MPI_COMM_WORLD, np, ierr) ! site:size_a
    call srcline_deeper(i)
  end do
  call MPI_Finalize(ierr) ! site:finalize
contains
  recursive subroutine srcline_deeper(k)
    integer, intent(in) :: k
    integer :: pad(k * 100), ierr3, np3
    pad = k
    if (k > 1) then
      call srcline_deeper(k - 1)
    else
      call MPI_Comm_size(MPI_COMM_WORLD, np3, ierr3) ! site:size_b
    end if
    if (pad(1) < 0) print *, np3
  end subroutine srcline_deeper
  subroutine srcline_barrier()
    integer :: ierr2
    call MPI_Barrier(MPI_COMM_WORLD, ierr2) ! site:barrier
  end subroutine srcline_barrier
end program srcline
