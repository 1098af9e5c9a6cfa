#!/usr/bin/env python3
"""mi-refdump.py FILE.mi > FILE.expected

An independent reference implementation of the GDB/MI grammar, written
separately from mi/ (in another language, from GDB's manual, "GDB/MI Output
Syntax"), that prints the canonical dump of mi_record_dump(). It produced
the first draft of tests/mi/data/*.expected, which were then read by hand
against the transcripts; the C parser is tested against those files. It
knows only what the corpus needs (not every error message of the C side).
"""
import sys

VAR = set(b'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./')
CLS = VAR - set(b'./')
ESC = {ord('n'): 10, ord('t'): 9, ord('r'): 13, ord('b'): 8, ord('f'): 12,
       ord('a'): 7, ord('v'): 11, ord('e'): 27}


class Bad(Exception):
    def __init__(self, off, msg):
        self.off, self.msg = off, msg


def cstring(s, i):
    if i >= len(s) or s[i] != ord('"'):
        raise Bad(i, "expected '\"'")
    i += 1
    out = bytearray()
    while True:
        if i >= len(s):
            raise Bad(len(s), 'unterminated c-string')
        ch = s[i]
        if ch == ord('"'):
            return bytes(out), i + 1
        if ch != ord('\\'):
            out.append(ch)
            i += 1
            continue
        i += 1
        if i >= len(s):
            raise Bad(len(s), 'unterminated c-string')
        ch = s[i]
        if ch in ESC:
            out.append(ESC[ch])
            i += 1
        elif ord('0') <= ch <= ord('7'):
            v, k = 0, 0
            while k < 3 and i < len(s) and ord('0') <= s[i] <= ord('7'):
                v = v * 8 + s[i] - ord('0')
                i += 1
                k += 1
            out.append(v & 255)
        elif ch == ord('x'):
            digits = b''
            while len(digits) < 2 and i + 1 + len(digits) < len(s) and \
                    chr(s[i + 1 + len(digits)]) in '0123456789abcdefABCDEF':
                digits += bytes([s[i + 1 + len(digits)]])
            if digits:
                out.append(int(digits, 16))
                i += 1 + len(digits)
            else:
                out.append(ch)
                i += 1
        else:
            out.append(ch)
            i += 1


def element(s, i):
    name = None
    if i < len(s) and s[i] in VAR:
        j = i
        while j < len(s) and s[j] in VAR:
            j += 1
        if j >= len(s) or s[j] != ord('='):
            raise Bad(j, "expected '=' after the variable name")
        name, i = s[i:j].decode('latin-1'), j + 1
    v, i = value(s, i)
    return (name, v), i


def value(s, i):
    if i >= len(s):
        raise Bad(i, 'expected a value')
    c = s[i]
    if c == ord('"'):
        t, i = cstring(s, i)
        return ('s', t), i
    if c in b'{[':
        close = ord('}') if c == ord('{') else ord(']')
        kids = []
        i += 1
        if i < len(s) and s[i] == close:
            return ('t' if close == ord('}') else 'l', kids), i + 1
        while True:
            el, i = element(s, i)
            kids.append(el)
            if i < len(s) and s[i] == close:
                return ('t' if close == ord('}') else 'l', kids), i + 1
            if i >= len(s) or s[i] != ord(','):
                raise Bad(i, "expected ',' or '%s'" % chr(close))
            i += 1
    raise Bad(i, "expected a value ('\"', '{' or '[')")


def esc(b):
    out = '"'
    for ch in b:
        if ch == 34: out += '\\"'
        elif ch == 92: out += '\\\\'
        elif ch == 10: out += '\\n'
        elif ch == 9: out += '\\t'
        elif ch == 13: out += '\\r'
        elif ch < 32 or ch > 126: out += '\\x%02x' % ch
        else: out += chr(ch)
    return out + '"'


def dump_value(name, v, depth, out):
    pre = '  ' * depth + (name + ' = ' if name is not None else '')
    kind, x = v
    if kind == 's':
        out.append(pre + esc(x))
    elif not x:
        out.append(pre + ('{}' if kind == 't' else '[]'))
    else:
        out.append(pre + ('{' if kind == 't' else '['))
        for n, c in x:
            dump_value(n, c, depth + 1, out)
        out.append('  ' * depth + ('}' if kind == 't' else ']'))


def record(s):
    out = []
    if s.startswith(b'(gdb)') and all(c == 32 for c in s[5:]):
        return ['prompt']
    i, tok = 0, None
    while i < len(s) and 48 <= s[i] <= 57:
        i += 1
    if i:
        tok = int(s[:i])
        if tok >= 2 ** 64:
            raise Bad(i - 1, 'token too large')
    if i >= len(s):
        raise Bad(i, 'empty line' if not s else 'expected a record marker after the token')
    m = chr(s[i])
    if m in '^*+=':
        kind = {'^': 'result', '*': 'exec', '+': 'status', '=': 'notify'}[m]
        j = i + 1
        while j < len(s) and s[j] in CLS:
            j += 1
        if j == i + 1:
            raise Bad(j, 'expected a record class')
        head = kind + ('' if tok is None else ' token=%d' % tok) + \
            ' class=' + s[i + 1:j].decode()
        out.append(head)
        i = j
        while i < len(s):
            if s[i] != ord(','):
                raise Bad(i, "expected ',' or end of line")
            (n, v), i = element(s, i + 1)
            dump_value(n, v, 1, out)
        return out
    if m in '~@&':
        if tok is not None:
            raise Bad(i, 'a stream record has no token')
        t, j = cstring(s, i + 1)
        if j != len(s):
            raise Bad(j, 'expected end of line after the c-string')
        return [{'~': 'console', '@': 'target', '&': 'log'}[m] + ' ' + esc(t)]
    raise Bad(i, "not a gdb/mi record (expected one of ^*+=~@& or '(gdb)')")


def main():
    data = open(sys.argv[1], 'rb').read()
    lines = data.split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()
    out = []
    for ln in lines:
        while ln.endswith(b'\r'):
            ln = ln[:-1]
        try:
            out += record(ln)
        except Bad as e:
            out.append('invalid error=SYNTAX offset=%d "%s" line=%s' % (e.off, e.msg, esc(ln)))
    sys.stdout.write(''.join(l + '\n' for l in out))


main()
