! Issue 16, class 9, in Fortran: every rank reads a parameter file with
! Fortran I/O (an input), writes its result file, reads it back (its own
! output) and reduces. Prints what it read.
program file_param_f
  use mpi
  implicit none
  integer :: ierr, rank, n, m
  double precision :: scale, mine, total
  character(len=32) :: name, fname
  character(len=64) :: line
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  open(unit=10, file='params.txt', status='old', action='read')
  read(10, *) name, n, scale
  close(10)
  mine = scale * (n + rank)
  call MPI_Allreduce(mine, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, &
                     MPI_COMM_WORLD, ierr)
  write(fname, '(a,i0,a)') 'fresult-', rank, '.txt'
  open(unit=11, file=fname, status='replace', action='write')
  write(11, '(a,i0,a,f10.3)') 'rank ', rank, ' total ', total
  close(11)
  open(unit=12, file=fname, status='old', action='read')
  read(12, '(a)') line
  close(12)
  m = len_trim(line)
  print '(a,i0,a,a,a,i0,a,f8.3,a,a)', 'rank ', rank, ': case ', trim(name), &
       ' n=', n, ' scale=', scale, ' read back: ', line(1:m)
  call MPI_Finalize(ierr)
end program file_param_f
