! fortran-p2p - the Fortran bindings (mpi module): the recorder must wrap
! MPICH's Fortran entry points too (they call the C PMPI layer).
!
! 1. A ring (rank 0 sends first, the others receive first) of ROUNDS
!    MPI_Send/MPI_Recv, checking status(MPI_SOURCE), status(MPI_TAG),
!    MPI_Get_count and the payload (encodes sender, round, index).
! 2. MPI_Bcast of a double precision array from the last rank.
! 3. MPI_Allreduce (MPI_SUM) of an integer array.
! 4. Rank 0 receives one message from every other rank with
!    MPI_ANY_SOURCE and uses status(MPI_SOURCE) to check each payload;
!    arrival order varies, the summary line does not.
! Prints "rank R: ..." lines and "rank R: checksum <hex>"; a wrong result
! calls MPI_Abort(MPI_COMM_WORLD, 1).
!
!   mpiexec -n 2..4 ./fortran-p2p      (at least 2 ranks)
program fortran_p2p
  use mpi
  implicit none
  integer, parameter :: n = 16, rounds = 6
  integer :: ierr, rank, nprocs, left, right, r, i, cnt, step
  integer :: status(MPI_STATUS_SIZE)
  integer :: sbuf(n), rbuf(n), isum(n), seen
  double precision :: dbuf(n)
  integer(8) :: hash

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  hash = 1469598103_8
  if (nprocs < 2) call fail('needs at least 2 ranks')
  left = mod(rank + nprocs - 1, nprocs)
  right = mod(rank + 1, nprocs)

  ! 1. ring
  do r = 1, rounds
    do i = 1, n
      sbuf(i) = payload(rank, r, i)
    end do
    rbuf = -1
    do step = 0, 1
      if ((rank == 0) .eqv. (step == 0)) then
        call MPI_Send(sbuf, n, MPI_INTEGER, right, 100 + r, MPI_COMM_WORLD, ierr)
      else
        call MPI_Recv(rbuf, n, MPI_INTEGER, left, 100 + r, MPI_COMM_WORLD, &
                      status, ierr)
      end if
    end do
    call MPI_Get_count(status, MPI_INTEGER, cnt, ierr)
    if (status(MPI_SOURCE) /= left .or. status(MPI_TAG) /= 100 + r .or. &
        cnt /= n) call fail('ring status')
    do i = 1, n
      if (rbuf(i) /= payload(left, r, i)) call fail('ring payload')
      call add(rbuf(i))
    end do
  end do
  call say('ring ok')

  ! 2. bcast from the last rank
  dbuf = 0
  if (rank == nprocs - 1) then
    do i = 1, n
      dbuf(i) = i * 0.5d0
    end do
  end if
  call MPI_Bcast(dbuf, n, MPI_DOUBLE_PRECISION, nprocs - 1, MPI_COMM_WORLD, ierr)
  do i = 1, n
    if (dbuf(i) /= i * 0.5d0) call fail('bcast')
    call add(int(dbuf(i) * 2))
  end do
  call say('bcast ok')

  ! 3. allreduce
  do i = 1, n
    sbuf(i) = rank * 10 + i
  end do
  call MPI_Allreduce(sbuf, isum, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  do i = 1, n
    if (isum(i) /= 10 * nprocs * (nprocs - 1) / 2 + nprocs * i) &
      call fail('allreduce')
    call add(isum(i))
  end do
  call say('allreduce ok')

  ! 4. ANY_SOURCE at rank 0
  if (rank == 0) then
    seen = 0
    do r = 1, nprocs - 1
      call MPI_Recv(rbuf, n, MPI_INTEGER, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &
                    status, ierr)
      if (status(MPI_SOURCE) < 1 .or. status(MPI_SOURCE) >= nprocs) &
        call fail('any_source status')
      if (btest(seen, status(MPI_SOURCE))) call fail('duplicate sender')
      seen = ibset(seen, status(MPI_SOURCE))
      do i = 1, n
        if (rbuf(i) /= payload(status(MPI_SOURCE), 0, i)) &
          call fail('any_source payload')
      end do
    end do
    ! order independent: the data of every sender, in rank order
    do r = 1, nprocs - 1
      do i = 1, n
        call add(payload(r, 0, i))
      end do
    end do
    call say('any_source: one message from every rank ok')
  else
    do i = 1, n
      sbuf(i) = payload(rank, 0, i)
    end do
    call MPI_Send(sbuf, n, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, ierr)
  end if

  write (*, '(A,I0,A,Z16.16)') 'rank ', rank, ': checksum ', hash
  flush (6)
  call MPI_Finalize(ierr)

contains

  integer function payload(src, seq, i)
    integer, intent(in) :: src, seq, i
    payload = src * 100000 + seq * 1000 + i
  end function payload

  ! A polynomial hash; the modulus (2**61 / 131) keeps hash * 131 + v
  ! below 2**63.
  subroutine add(v)
    integer, intent(in) :: v
    hash = mod(hash * 131_8 + int(v, 8), 17601855032165602_8)
  end subroutine add

  subroutine say(msg)
    character(*), intent(in) :: msg
    write (*, '(A,I0,A,A)') 'rank ', rank, ': ', msg
    flush (6)
  end subroutine say

  subroutine fail(msg)
    character(*), intent(in) :: msg
    integer :: e
    write (*, '(A,I0,A,A)') 'rank ', rank, ': FAIL ', msg
    flush (6)
    write (0, '(A,I0,A,A)') 'rank ', rank, ': FAIL ', msg
    call MPI_Abort(MPI_COMM_WORLD, 1, e)
    stop 1
  end subroutine fail

end program fortran_p2p
