# The GDB parity script of parity.f90 (tests/console/test-gdb-parity.sh):
# one command a line; each '#!start' begins a new session, both debuggers
# anew at main's first line (gfortran's main, which calls the program).

# ---- the main program's variables and types, before MPI_Init
info line
step
info locals
print b
print b%corner(2)
print b%name
print b%scale
print vals
print vals(2:4)
print grid
print grid(2,3)
print z
print ok
print label
print me
print/x me
print/x grid
print/t 5
print fact(4)
whatis b
ptype b
ptype point
ptype vals
whatis grid
ptype fact
ptype accumulate

# ---- through the MPI calls, into the subroutine and the recursion
next
next
next
next
step
bt
info frame
finish
next
tbreak {{zero}}
continue
bt
info args
watch total
continue
continue
delete
until
until
info locals
finish

#!start
# ---- a recursive function: finish's value, bt at depth
break fact if n == 1
continue
bt
bt 2
info args
finish
up
info args
print $
continue
