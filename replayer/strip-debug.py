#!/usr/bin/env python3
"""Build-time helper: one archive of the replay stub's objects without their
debug information (see replayer/meson.build and rpl-debug.c).

usage: strip-debug.py OBJCOPY AR OUT ARCHIVE...

Reads each (thin or normal) ARCHIVE's members, copies every one with
`objcopy --strip-debug`, and writes them into the normal archive OUT.
"""
import os
import subprocess
import sys
import tempfile


def members(ar, archive):
    """The paths of ARCHIVE's member objects (a thin archive's, on disk)."""
    out = subprocess.run([ar, 't', archive], check=True, capture_output=True,
                         text=True).stdout.split()
    paths = []
    for name in out:
        for cand in (name, os.path.join(os.path.dirname(archive), name)):
            if os.path.exists(cand):
                paths.append(cand)
                break
        else:
            sys.exit(f'strip-debug.py: member {name} of {archive} not found '
                     '(not a thin archive?)')
    return paths


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    objcopy, ar, out = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        objs = []
        for archive in sys.argv[4:]:
            for path in members(ar, archive):
                dst = os.path.join(tmp, f'{len(objs):04d}-'
                                   + os.path.basename(path))
                subprocess.run([objcopy, '--strip-debug', path, dst],
                               check=True)
                objs.append(dst)
        if os.path.exists(out):
            os.unlink(out)
        subprocess.run([ar, 'rcs', out] + objs, check=True)


if __name__ == '__main__':
    main()
