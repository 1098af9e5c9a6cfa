! MPI_FILE_GET_VIEW through the Fortran bindings (mpi module): each rank
! sets a view of a vector filetype on a file of its own, frees its type,
! gets the view back and uses the returned filetype as the memory type of
! MPI_FILE_READ_AT_ALL and of a message to itself; prints what arrived.
program type_fileview_f
  use mpi
  implicit none
  integer :: ierr, rank, fh, vec, et, ft, i
  integer :: wbuf(16), rbuf(16), st(MPI_STATUS_SIZE)
  integer(kind=MPI_OFFSET_KIND) :: disp
  integer(kind=MPI_ADDRESS_KIND) :: lb, ext
  character(len=MPI_MAX_DATAREP_STRING) :: rep
  character(len=256) :: path, dir

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call get_environment_variable('TMPDIR', dir, status=i)
  if (i /= 0) dir = '/tmp'
  write (path, '(a,a,i0,a,i0,a)') trim(dir), '/drdb-fileview-f-', &
        getpid(), '-', rank, '.dat'
  call MPI_FILE_OPEN(MPI_COMM_SELF, path, MPI_MODE_CREATE + MPI_MODE_RDWR, &
                     MPI_INFO_NULL, fh, ierr)
  do i = 1, 16
    wbuf(i) = rank * 100 + i
  end do
  call MPI_FILE_WRITE_AT(fh, 0_MPI_OFFSET_KIND, wbuf, 16, MPI_INTEGER, &
                         st, ierr)
  ! 4 blocks of 2 integers every 4
  call MPI_TYPE_VECTOR(4, 2, 4, MPI_INTEGER, vec, ierr)
  call MPI_TYPE_COMMIT(vec, ierr)
  call MPI_FILE_SET_VIEW(fh, 4_MPI_OFFSET_KIND, MPI_INTEGER, vec, &
                         'native', MPI_INFO_NULL, ierr)
  call MPI_TYPE_FREE(vec, ierr)
  call MPI_FILE_GET_VIEW(fh, disp, et, ft, rep, ierr)
  call MPI_TYPE_GET_EXTENT(ft, lb, ext, ierr)
  print '(a,i0,a,i0,a,l1,a,a)', 'view: disp ', disp, ' extent ', ext, &
        ' etype integer ', et == MPI_INTEGER, ' datarep ', trim(rep)
  rbuf = -1
  call MPI_FILE_READ_AT_ALL(fh, 0_MPI_OFFSET_KIND, rbuf, 1, ft, st, ierr)
  print '(a,16(1x,i0))', 'read:', rbuf
  rbuf = -1
  call MPI_SENDRECV(wbuf, 8, MPI_INTEGER, 0, 1, rbuf, 1, ft, 0, 1, &
                    MPI_COMM_SELF, st, ierr)
  print '(a,16(1x,i0))', 'message:', rbuf
  call MPI_TYPE_FREE(ft, ierr)
  call MPI_FILE_CLOSE(fh, ierr)
  call MPI_FILE_DELETE(path, MPI_INFO_NULL, ierr)
  call MPI_FINALIZE(ierr)
end program type_fileview_f
