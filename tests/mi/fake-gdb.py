#!/usr/bin/env python3
"""fake-gdb.py - a scripted stand-in for `gdb --interpreter=mi3`, for the
driver tests in test-mi-driver.c: it answers the driver's setup commands
and a few made-up commands that produce GDB behaviours on demand.

  -list-features        ^done,features=[...]
  -crlf                 the reply and a prompt end in \\r\\n
  -stray                a result with a token nobody sent, then the reply
  -console N            N console lines, then the reply
  -big N                a reply with an N-byte string
  -garbage              a non-MI line, then the reply
  -stderr               a line on stderr, then the reply
  -run                  =thread-group-started, ^running, *running, then
                        *stopped (like -exec-run to the end)
  -error                ^error,msg="fake error"
  -hang                 no reply
  -die N                exit N without a reply
  anything else         ^done
"""
import sys

out = sys.stdout.buffer


def w(s):
    out.write(s.encode() if isinstance(s, str) else s)
    out.flush()


w('=thread-group-added,id="i1"\n(gdb) \n')
for raw in sys.stdin.buffer:
    line = raw.decode('latin-1').rstrip('\n')
    i = 0
    while i < len(line) and line[i].isdigit():
        i += 1
    tok, cmd = line[:i], line[i:]
    op, _, arg = cmd.partition(' ')
    if op == '-list-features':
        w(tok + '^done,features=["thread-info","fake"]\n(gdb) \n')
    elif op == '-crlf':
        w(tok + '^done,v="crlf"\r\n(gdb) \r\n')
    elif op == '-stray':
        w('424242^done,stray="1"\n(gdb) \n' + tok + '^done\n(gdb) \n')
    elif op == '-console':
        for k in range(int(arg)):
            w('~"line %d\\n"\n' % k)
        w(tok + '^done\n(gdb) \n')
    elif op == '-big':
        w(tok + '^done,v="' + 'x' * int(arg) + '"\n(gdb) \n')
    elif op == '-garbage':
        w('this is not mi\n' + tok + '^done\n(gdb) \n')
    elif op == '-stderr':
        sys.stderr.write('fake: a warning\n')
        sys.stderr.flush()
        w(tok + '^done\n(gdb) \n')
    elif op == '-run':
        w('=thread-group-started,id="i1",pid="4242"\n' + tok + '^running\n'
          '*running,thread-id="all"\n(gdb) \n'
          '*stopped,reason="exited-normally"\n(gdb) \n')
    elif op == '-error':
        w(tok + '^error,msg="fake error"\n(gdb) \n')
    elif op == '-hang':
        pass
    elif op == '-die':
        sys.exit(int(arg))
    elif op == '-gdb-exit':
        w(tok + '^exit\n')
        sys.exit(0)
    else:
        w(tok + '^done\n(gdb) \n')
