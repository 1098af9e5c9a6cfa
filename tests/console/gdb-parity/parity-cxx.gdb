# The GDB parity script of parity.cc (tests/console/test-gdb-parity.sh):
# one command a line; each '#!start' begins a new session, both debuggers
# anew at main's first line.

# ---- past the constructors and MPI_Init: C++ values and types
advance {{rank}}
info locals
print a
print r
print *s
print -object on -- *s
print s->name()
print s->area()
print a.dot(b)
print v
print str
print ref
print/x rank
ptype geo::Vec
ptype geo::Rect
ptype s
whatis r
whatis ref
whatis twice<int>
print scale(2)
print scale(2.0)
print sizeof(geo::Rect)
info functions ^scale
info line geo::Rect::area

# ---- into an operator, a virtual function, a template; finish's values
next
info locals
step
bt
info args
finish
next
step
bt
up
down
finish
break twice<double>
continue
info args
finish

#!start
# ---- recursion on a reference: a conditional breakpoint, the stack
break descend if n == 0
continue
bt
bt full
up 2
info args
print v.x + n
down
finish
tbreak {{after}}
continue
print sum
print $_exitcode
continue
