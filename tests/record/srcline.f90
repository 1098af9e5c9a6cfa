! Calls at known lines from Fortran, for test-record-srcline.sh: each
! call's line has a marker comment "site:NAME" the test finds with grep.
! MPICH's Fortran bindings make the C call: the recorder must name this
! file, not the binding. 2 ranks.
program srcline
  use mpi
  implicit none
  integer :: ierr, rank, req(2), a(4), b(4)
  a = 1
  call MPI_Init(ierr) ! site:init
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr) ! site:comm_rank
  call MPI_Irecv(b, 4, MPI_INTEGER, 1 - rank, 0, MPI_COMM_WORLD, req(1), ierr) ! site:irecv
  call MPI_Isend(a, 4, MPI_INTEGER, 1 - rank, 0, MPI_COMM_WORLD, req(2), ierr) ! site:isend
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr) ! site:waitall
  call srcline_barrier()
  call MPI_Finalize(ierr) ! site:finalize
contains
  subroutine srcline_barrier()
    integer :: ierr2
    call MPI_Barrier(MPI_COMM_WORLD, ierr2) ! site:barrier
  end subroutine srcline_barrier
end program srcline
