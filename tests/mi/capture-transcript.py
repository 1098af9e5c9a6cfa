#!/usr/bin/env python3
"""capture-transcript.py SCRIPT OUT [GDB ARGV...]

Records GDB/MI output for the test corpus in tests/mi/data/. Runs
`gdb -nx -q --interpreter=mi3` (or the given argv), in the directory of
SCRIPT, and saves every byte GDB writes on stdout to OUT. SCRIPT lines:
    send TEXT      write TEXT + "\\n" to gdb (put the token in TEXT)
    wait REGEX     wait (10 s max) until a complete output line matches
    sleep SECONDS
    # comment
Words @INFERIOR@ in TEXT are replaced by $MI_INFERIOR.
"""
import os, re, select, subprocess, sys, time

def main():
    script, out = sys.argv[1], sys.argv[2]
    argv = sys.argv[3:] or ['gdb', '-nx', '-q', '--interpreter=mi3']
    env = dict(os.environ)
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=env,
                         cwd=os.path.dirname(os.path.abspath(script)))
    data = b''
    seen = 0
    def pump(timeout):
        nonlocal data
        r, _, _ = select.select([p.stdout], [], [], timeout)
        if r:
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                return False
            data += chunk
        return True
    for raw in open(script):
        line = raw.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        verb, _, arg = line.partition(' ')
        if verb == 'send':
            arg = arg.replace('@INFERIOR@', os.environ.get('MI_INFERIOR', ''))
            p.stdin.write(arg.encode() + b'\n')
            p.stdin.flush()
        elif verb == 'wait':
            rx = re.compile(arg.encode())
            t0 = time.time()
            while True:
                lines = data[seen:].split(b'\n')[:-1]
                hit = [i for i, l in enumerate(lines) if rx.search(l)]
                if hit:
                    seen += sum(len(l) + 1 for l in lines[:hit[0] + 1])
                    break
                if time.time() - t0 > 10 or not pump(0.5):
                    open(out, 'wb').write(data)
                    p.kill()
                    sys.exit('gave up waiting for %r' % arg)
        elif verb == 'sleep':
            t0 = time.time()
            while time.time() - t0 < float(arg):
                pump(0.05)
        else:
            sys.exit('bad script line: ' + line)
    t0 = time.time()
    while time.time() - t0 < 0.3:
        if not pump(0.05):
            break
    p.kill()
    p.wait()
    open(out, 'wb').write(data)

main()
