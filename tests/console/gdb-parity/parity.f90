! parity.f90 - the Fortran program of the GDB parity suite
! (tests/console/test-gdb-parity.sh): a derived type holding an array of
! another, a character string, logical, complex, a 2-D array, a recursive
! function (finish shows its value), a subroutine with a loop (watch,
! until) and an MPI_Bcast and MPI_Allreduce to replay. The main program's
! variables are initialised where they are declared, so they hold the same
! values natively and in the replay from the first line on (and each is used: gfortran gives
! an unused one no place). Lines the
! script names carry "mark:NAME"; every line of output starts with "out: ".
!
!   ./parity-f    or    mpiexec -n 1 ./parity-f
module shapes
  implicit none
  type :: point
     integer :: x, y
  end type point
  type :: box_t
     character(len=8) :: name
     type(point) :: corner(2)
     real(8) :: scale
     logical :: filled
  end type box_t
contains
  recursive function fact(n) result(r)
    integer, intent(in) :: n
    integer :: r
    if (n <= 1) then
       r = 1                          ! mark:base
    else
       r = n * fact(n - 1)
    end if
  end function fact

  subroutine accumulate(v, n, total)
    integer, intent(in) :: n
    real(8), intent(in) :: v(n)
    real(8), intent(out) :: total
    integer :: i
    total = 0                         ! mark:zero
    do i = 1, n                       ! mark:loop
       total = total + v(i)           ! mark:body
    end do
    total = total * 2                 ! mark:done
  end subroutine accumulate
end module shapes

program parity_f
  use mpi
  use shapes
  implicit none
  integer :: ierr = 0, me = -1, f = 0
  real(8) :: vals(5) = (/ 1.5d0, 2.5d0, -1.0d0, 4.0d0, 0.25d0 /)
  real(8) :: total = 0, global = 0
  type(box_t) :: b = box_t('box', (/ point(1, 2), point(-3, 4) /), 2.5d0, &
                           .true.)
  complex :: z = (1.0, -2.0)
  logical :: ok = .false.
  character(len=12) :: label = 'parity-f90'
  integer :: grid(2, 3) = reshape((/ 1, 2, 3, 4, 5, 6 /), (/ 2, 3 /))

  call MPI_Init(ierr)                 ! mark:init
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Bcast(vals, 5, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  f = fact(5)                         ! mark:fact
  call accumulate(vals, 5, total)     ! mark:acc
  call MPI_Allreduce(total, global, 1, MPI_DOUBLE_PRECISION, MPI_SUM, &
                     MPI_COMM_WORLD, ierr)
  ok = global > 10                    ! mark:after
  grid(1, 1) = f
  b%corner(2)%x = b%corner(2)%x + f
  z = z * 2
  write (*, '(a, i0, a, i0, a, f8.3, a, l1)') 'out: rank ', me, ' fact ', &
       f, ' global ', global, ' ok ', ok
  write (*, '(a, a, a, i0, a, a, f6.2, f6.2)') 'out: ', trim(b%name), ' ', &
       b%corner(2)%x, ' ', trim(label), real(z), aimag(z)
  flush (6)
  call MPI_Finalize(ierr)
end program parity_f
