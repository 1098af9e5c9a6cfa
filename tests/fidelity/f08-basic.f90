! f08-basic: the mpi_f08 module, whose MPICH bindings call PMPI_ functions
! directly. Point-to-point with MPI_Status objects, nonblocking calls and
! MPI_Waitall, collectives, a derived (vector) type. Every rank prints what
! it received, so a replay that answers differently shows in its output.
program f08_basic
  use mpi_f08
  implicit none
  integer :: rank, nprocs, left, right, i, n, ierr
  integer :: sbuf(4), rbuf(4), ibufs(2), ibufr(2), vec(8), got(4)
  double precision :: x, tot
  type(MPI_Status) :: st, sts(2)
  type(MPI_Request) :: reqs(2)
  type(MPI_Datatype) :: stride2

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)

  ! Blocking ring with a status: source, tag and count from it. From the
  ! left neighbour (any tag): from any source, rank 0 could take rank 1's
  ! later tag-20 message here, and the ring would never complete.
  do i = 1, 4
    sbuf(i) = 100 * rank + i
  end do
  call MPI_Sendrecv(sbuf, 4, MPI_INTEGER, right, 7 + rank, &
                    rbuf, 4, MPI_INTEGER, left, MPI_ANY_TAG, &
                    MPI_COMM_WORLD, st)
  call MPI_Get_count(st, MPI_INTEGER, n)
  print '(a,i0,a,4i6,a,i0,a,i0,a,i0)', 'rank ', rank, ' ring', rbuf, &
        ' src ', st%MPI_SOURCE, ' tag ', st%MPI_TAG, ' count ', n

  ! Send / Recv from any source: the status says who sent how much.
  if (rank == 0) then
    do i = 1, nprocs - 1
      call MPI_Recv(got, 4, MPI_INTEGER, MPI_ANY_SOURCE, 20, &
                    MPI_COMM_WORLD, st)
      call MPI_Get_count(st, MPI_INTEGER, n)
      got(n + 1:) = 0
      print '(a,i0,a,i0,a,4i6)', 'rank 0 from ', st%MPI_SOURCE, &
            ' n ', n, ' data', got
    end do
  else
    got = [rank, rank * rank, -rank, 0]
    call MPI_Send(got, 1 + mod(rank, 3), MPI_INTEGER, 0, 20, MPI_COMM_WORLD)
  end if

  ! Nonblocking both ways, completed with MPI_Waitall.
  ibufs = [rank * 11, rank * 13]
  ibufr = -1
  call MPI_Irecv(ibufr, 2, MPI_INTEGER, left, 3, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(ibufs, 2, MPI_INTEGER, right, 3, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, sts)
  print '(a,i0,a,2i6,a,i0)', 'rank ', rank, ' irecv', ibufr, &
        ' src ', sts(1)%MPI_SOURCE

  ! A derived type: every other integer of vec, sent to the right.
  call MPI_Type_vector(4, 1, 2, MPI_INTEGER, stride2)
  call MPI_Type_commit(stride2)
  vec = [(rank * 1000 + i, i = 1, 8)]
  got = 0
  call MPI_Sendrecv(vec, 1, stride2, right, 9, got, 4, MPI_INTEGER, left, 9, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call MPI_Type_free(stride2)
  print '(a,i0,a,4i6)', 'rank ', rank, ' vector', got

  ! Collectives.
  x = 1.5d0 * (rank + 1)
  call MPI_Allreduce(x, tot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  n = rank * 7
  call MPI_Bcast(n, 1, MPI_INTEGER, nprocs - 1, MPI_COMM_WORLD)
  print '(a,i0,a,f8.2,a,i0)', 'rank ', rank, ' allreduce ', tot, ' bcast ', n

  call MPI_Finalize()
end program f08_basic
