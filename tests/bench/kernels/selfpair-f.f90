! selfpair-f - kernels/selfpair.c's blocking pair from Fortran: one rank
! MPI_Bsends 8 bytes to itself and MPI_Recvs them, N times, through
! MPICH's Fortran bindings (libmpifort's mpi_bsend_ calls MPI_Bsend: the
! recorder finds the program's call site above the binding's frame).
! Prints "pair_ns NS" and "time_s S".
!
!   mpiexec -n 1 ./bench-selfpair-f [N]
program selfpair_f
  use mpi
  implicit none
  integer :: ierr, i, n, bsize
  character(len=32) :: arg
  double precision :: x, y, t0, t
  character, allocatable :: buf(:)

  n = 1000000
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  x = 1.0d0
  y = 0.0d0
  call MPI_Init(ierr)
  bsize = 1024
  allocate (buf(bsize))
  call MPI_Buffer_attach(buf, bsize, ierr)
  do i = 1, 1000 ! warm up
    call MPI_Bsend(x, 1, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_SELF, ierr)
    call MPI_Recv(y, 1, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_SELF, &
                  MPI_STATUS_IGNORE, ierr)
  end do
  t0 = MPI_Wtime()
  do i = 1, n
    x = x + 1.0d0
    call MPI_Bsend(x, 1, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_SELF, ierr)
    call MPI_Recv(y, 1, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_SELF, &
                  MPI_STATUS_IGNORE, ierr)
  end do
  t = MPI_Wtime() - t0
  if (y /= x) then
    print *, 'selfpair-f: received', y, 'sent', x
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  if (n > 0) then
    write (*, '(a,f0.1)') 'pair_ns ', t / n * 1d9
  else
    write (*, '(a,f0.1)') 'pair_ns ', 0.0d0
  end if
  write (*, '(a,f0.6)') 'time_s ', t
  call MPI_Buffer_detach(buf, bsize, ierr)
  call MPI_Finalize(ierr)
end program selfpair_f
