# The GDB parity script of parity.c (tests/console/test-gdb-parity.sh):
# one command a line; each '#!start' begins a new session, both debuggers
# anew at main's first line.

# ---- at main's first line, before any MPI call: where, types, values
info line
list
info source
# GDB's settings ('show' is GDB's even though its alias 'info set' has a
# space in help all)
show print pretty
show language
show args
sho listsize
whatis box
ptype box
ptype struct point
ptype union word
ptype enum color
ptype shape_t *
whatis box.corner
whatis &box.corner[1]
print box
print box.name
print *box.next
print box.next->label
print box.tag
print favourite
print (enum color) 6
print bytes
print shorts
print ratios
print greeting
print letter
print third
print big

# ---- every format letter, as /FMT and as print's option
print/x bytes
print/d bytes
print/u shorts
print/o 64
print/t 10
print/a &square
print/c 65
print/f 3
print/s greeting
print/z 255
print/i 3
print/d favourite
print /x 255
print/x -1
print/x box.corner
print/c bytes
print/x big
print -pretty -- box
print -elements 3 -- bytes
print -repeats 3 -- box.name
print -symbol off -- &box
print -array on -- ratios
print -array-indexes on -- shorts
print ratios[1]@2
print *ratios@3
print sizeof(shape_t)
print &box.corner[1]
print box.corner[1].y * 2 + letter

# ---- output, x, $_ and $__, inferior calls, printf, echo
output box.corner[1]
output/x counter
x/4xw &box.corner
x/s greeting
x/2i $pc
x/8xb bytes
x/3dh shorts
x/2fg ratios
print $_
print $__
call square(7)
call factorial(5)
print square(3) + factorial(3)
call (void) square(2)
printf "%s has %d corners, scale %.2f, %c\n", box.name, 2, box.scale, letter
printf "%5d|%-5s|%#x\n", 42, "ab", 255
echo echoed text\n
echo no newline

# ---- convenience variables, value history, set var, registers
set $x = 3
print $x * 2
print $
print $$2
print $_exitcode
set var counter = 41
print counter + 1
info registers rip
print $pc

#!start
# ---- display, next, step into a function, the stack
display counter
display/i $pc
info display
next
undisplay 2
next
undisplay
next
next
next
next
next
info locals
info args
step
bt
info frame
info args
next
info locals
up
info locals
down
frame
frame 1
frame 0
finish
print $
next
advance {{sumdone}}

#!start
# ---- breakpoints: ignore, condition, bt full, finish from recursion
break factorial
ignore 1 2
continue
bt
bt full
bt 1
bt -1
condition 1 n == 1
info breakpoints
continue
next
finish
delete 1

#!start
# ---- tbreak, watch
tbreak sum_to
continue
next
next
next
watch total
continue
continue
delete 2

#!start
# ---- rwatch, awatch
tbreak {{loop}}
continue
rwatch i
continue
continue
delete 2
awatch total
continue
continue

#!start
# ---- until, advance (within the frame: advance into a callee is the
# last command of the display section)
tbreak {{body}}
continue
next
until
until
info locals
finish
advance {{after}}
print global
info locals

#!start
# ---- a breakpoint's commands
break {{spinning}}
commands
silent
print counter
print origin
end
continue
info breakpoints
delete

#!start
# ---- Ctrl-C in a busy loop
set var spin_limit = 100000000000
#!ctrl-c
continue
print spin_limit > 0
bt
set var spin_limit = 0
finish

#!start
# ---- threads, symbols, lines, listing
advance {{call}}
info threads
info symbol square
info symbol &box
info symbol $pc
info line square
info line {{mpi}}
list square
list 90,92
list parity.c:{{base}}

# ---- into MPI, back out, to the end
tbreak MPI_Finalize
continue
bt
finish
next
continue
