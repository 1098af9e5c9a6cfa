#!/usr/bin/env python3
"""Generates drdb's MPI function table from log/mpi-functions.spec.

Usage: gen-functable.py SPEC FUNCS_H PROTOS_H DESC_C

  FUNCS_H   X-macro id table: DRDB_MPI_FUNCS(X) expands
            X(id, name, class, return type, number of arguments) per function
  PROTOS_H  the C prototypes of every MPI_ and PMPI_ function, as the spec
            writes them; compiled after <mpi.h> so a wrong type is an error
  DESC_C    the argument descriptors (log_funcs[]) for log/functable.c

The spec's grammar is documented at the top of the spec. Any error names the
spec line and stops the build. Standard library only (build-time tool).
"""
import re
import sys

DIRS = ("in", "out", "inout", "async")
CLASSES = ("auto", "manual")
KEYWORD_LENGTHS = ("string", "string[]", "ptr", "opaque", "callback", "?")
# Bytes a by-value argument takes in a record's argument block: its size in
# MPICH 4.0.2's ABI (checked by _Static_assert in the generated prototypes).
VALUE_SIZES = {
    "int": 4, "const int": 4, "MPI_Fint": 4, "MPI_Comm": 4,
    "MPI_Datatype": 4, "MPI_Errhandler": 4, "MPI_Group": 4, "MPI_Info": 4,
    "MPI_Op": 4, "MPI_Request": 4, "MPI_Win": 4, "MPI_Message": 4,
    "MPI_Session": 4, "MPI_T_cb_safety": 4, "MPIX_Grequest_class": 4,
    "MPI_Aint": 8, "MPI_Count": 8, "MPI_Offset": 8, "MPI_File": 8,
    "MPI_T_cvar_handle": 8, "MPI_T_enum": 8, "MPI_T_event_instance": 8,
    "MPI_T_event_registration": 8, "MPI_T_pvar_handle": 8,
    "MPI_T_pvar_session": 8, "MPI_T_event_cb_function": 8,
    "MPI_T_event_dropped_cb_function": 8, "MPI_T_event_free_cb_function": 8,
}
INT_TYPES = ("int", "const int", "MPI_Fint")
AINT_TYPES = ("MPI_Aint", "MPI_Count", "MPI_Offset")


def value_encoding(ctype):
    """enum log_enc of a by-value argument of type CTYPE (log/log.h)."""
    if ctype in INT_TYPES:
        return "LOG_ENC_INT"
    if ctype in AINT_TYPES:
        return "LOG_ENC_AINT"
    return "LOG_ENC_HANDLE" if VALUE_SIZES[ctype] == 4 else "LOG_ENC_PTR"


LEN_TERM = re.compile(
    r"^(?:\d+|\*?[A-Za-z_]\w*(?:\+1)?|size\(\w+\)|cartdim\(\w+\))$")
LEN_VEC = re.compile(r"^(\w+)\[\] x (\w+) @ (\w+)$")
LEN_BUF = re.compile(r"^(\S+(?: \* \S+)*) x (\w+)$")


class SpecError(Exception):
    pass


class Arg:
    def __init__(self, direction, ctype, name, array, length):
        self.direction = direction  # None for by-value arguments
        self.ctype = ctype          # C type without the name, arrays as []
        self.name = name
        self.array = array          # "[]", "[][3]" or ""
        self.length = length        # LENGTH annotation or None

    def c_decl(self):
        sep = "" if self.ctype.endswith("*") else " "
        return f"{self.ctype}{sep}{self.name}{self.array}"


class Func:
    def __init__(self, fid, cls, ret, name, args, variadic, lineno):
        self.id = fid
        self.cls = cls
        self.ret = ret
        self.name = name
        self.args = args
        self.variadic = variadic
        self.lineno = lineno

    def c_params(self):
        parts = [a.c_decl() for a in self.args]
        if self.variadic:
            parts.append("...")
        return ", ".join(parts) if parts else "void"


def split_args(text):
    """Splits on top-level commas (not inside [] or {})."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def check_length(length, names, constants_ok=True):
    """Raises SpecError unless LENGTH is well formed and names real args."""
    def term(t):
        if not LEN_TERM.match(t):
            raise SpecError(f"bad length term '{t}'")
        ident = re.sub(r"^\*|\+1$", "", t)
        m = re.match(r"^(?:size|cartdim)\((\w+)\)$", t)
        if m:
            ident = m.group(1)
        if ident.isdigit() or ident.startswith("MPI_MAX_"):
            return
        if ident not in names:
            raise SpecError(f"length '{length}' names no argument '{ident}'")

    if length in KEYWORD_LENGTHS:
        return
    m = LEN_VEC.match(length)
    if m:
        for ident in m.groups():
            if ident not in names:
                raise SpecError(
                    f"length '{length}' names no argument '{ident}'")
        return
    m = LEN_BUF.match(length)
    if m:
        for factor in m.group(1).split(" * "):
            term(factor)
        if m.group(2) not in names:
            raise SpecError(
                f"length '{length}' names no datatype argument "
                f"'{m.group(2)}'")
        return
    term(length)


def parse_arg(text):
    m = re.match(r"^(?:(in|out|inout|async)\s+)?(.*?)\s*(?:\{([^}]*)\})?$",
                 text)
    direction, decl, length = m.group(1), m.group(2), m.group(3)
    m = re.match(r"^(.*?)(\w+)((?:\[\w*\])*)$", decl)
    if not m or not m.group(1).strip():
        raise SpecError(f"cannot parse argument '{text}'")
    ctype, name, array = m.group(1).strip(), m.group(2), m.group(3)
    pointer = "*" in ctype or array
    if pointer and direction is None:
        raise SpecError(f"pointer argument '{name}' needs a direction "
                        f"({'/'.join(DIRS)})")
    if not pointer and direction is not None:
        raise SpecError(f"by-value argument '{name}' takes no direction")
    if not pointer and length is not None:
        raise SpecError(f"by-value argument '{name}' takes no length")
    if not pointer and ctype not in VALUE_SIZES:
        raise SpecError(f"by-value type '{ctype}' has no size: add it to "
                        "VALUE_SIZES in log/gen-functable.py")
    return Arg(direction, ctype, name, array, length)


def parse_line(line, lineno):
    m = re.match(r"^(\d+)\s+(\w+)\s+(.+?)\s+((?:P?MPIX?)_\w+)\((.*)\)\s*$",
                 line)
    if not m:
        raise SpecError("expected 'ID CLASS RET NAME(ARGS)'")
    fid, cls, ret, name, argtext = m.groups()
    if cls not in CLASSES:
        raise SpecError(f"class '{cls}' is not one of {', '.join(CLASSES)}")
    if name.startswith("PMPI_"):
        raise SpecError("list the MPI_ name; the PMPI_ twin is implied")
    args, variadic = [], False
    parts = split_args(argtext)
    if parts == ["void"]:
        parts = []
    for i, part in enumerate(parts):
        if part == "...":
            if i != len(parts) - 1:
                raise SpecError("'...' must be the last argument")
            variadic = True
            continue
        args.append(parse_arg(part))
    names = [a.name for a in args]
    if len(set(names)) != len(names):
        raise SpecError("two arguments share a name")
    for a in args:
        if a.length == "?" and cls == "auto":
            raise SpecError(f"argument '{a.name}' has length '?': "
                            "only a manual function may leave it open")
        if a.length is not None:
            try:
                check_length(a.length, names)
            except SpecError as e:
                raise SpecError(f"argument '{a.name}': {e}")
    return Func(int(fid), cls, ret, name, args, variadic, lineno)


def parse_spec(path):
    funcs, errors = [], []
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            try:
                funcs.append(parse_line(line, lineno))
            except SpecError as e:
                errors.append(f"{path}:{lineno}: {e}")
    seen_ids, seen_names = {}, {}
    prev = 0
    for fn in funcs:
        where = f"{path}:{fn.lineno}"
        if fn.id in seen_ids:
            errors.append(f"{where}: id {fn.id} already used by "
                          f"{seen_ids[fn.id]}")
        if fn.name in seen_names:
            errors.append(f"{where}: {fn.name} listed twice")
        if fn.id <= prev:
            errors.append(f"{where}: id {fn.id} out of order: ids are "
                          "assigned in increasing order, new ones at the end")
        if fn.id == 0:
            errors.append(f"{where}: id 0 is reserved")
        seen_ids[fn.id] = fn.name
        seen_names[fn.name] = fn.id
        prev = max(prev, fn.id)
    if errors:
        raise SystemExit("\n".join(errors))
    return funcs


def elem_type(arg):
    """C type of one element a pointer or array argument addresses."""
    t = arg.ctype.replace("const ", "").strip()
    if arg.array:
        return t
    assert t.endswith("*")
    return t[:-1].strip()


def count_expr(term, peers):
    """C expression (int64_t) for a LENGTH term: a product of terms;
    size(COMM) becomes PEERS(COMM), the generated code's own function."""
    parts = []
    for t in term.split(" * "):
        m = re.match(r"^size\((\w+)\)$", t)
        if m:
            parts.append(f"(int64_t){peers}({m.group(1)})")
        elif t.startswith("*"):
            parts.append(f"(int64_t)(*{t[1:]})")
        elif t.endswith("+1"):
            parts.append(f"((int64_t){t[:-2]} + 1)")
        else:
            parts.append(f"(int64_t)({t})")
    return " * ".join(parts)


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


HEADER = "/* Generated by log/gen-functable.py from log/mpi-functions.spec." \
         " Do not edit. */\n"


def write_funcs_h(funcs, path):
    with open(path, "w") as f:
        f.write(HEADER)
        f.write("#ifndef DRDB_MPI_FUNCS_H\n#define DRDB_MPI_FUNCS_H\n\n")
        f.write("/* X(id, name, class, return type, number of arguments) */\n")
        f.write("#define DRDB_MPI_FUNCS(X) \\\n")
        for fn in funcs:
            f.write(f"    X({fn.id}, {fn.name}, {fn.cls.upper()}, "
                    f"{fn.ret.replace(' ', '_')}, {len(fn.args)}) \\\n")
        f.write("\n")
        f.write(f"#define DRDB_MPI_FUNC_COUNT {len(funcs)}\n")
        f.write(f"#define DRDB_MPI_FUNC_MAX_ID {max(fn.id for fn in funcs)}\n")
        f.write(f"#define DRDB_MPI_FUNC_MAX_ARGS "
                f"{max(len(fn.args) for fn in funcs)}\n")
        f.write("\n#endif\n")


def write_protos_h(funcs, path):
    with open(path, "w") as f:
        f.write(HEADER)
        f.write("/* Prototypes of every MPI function in the table, as the spec"
                " writes them.\n * Include after <mpi.h>: a prototype that"
                " differs from MPICH's is a\n * compile error (conflicting"
                " types). */\n")
        f.write("#ifndef DRDB_MPI_PROTOS_H\n#define DRDB_MPI_PROTOS_H\n\n")
        for ctype, size in sorted(VALUE_SIZES.items()):
            ident = re.sub(r"\W", "_", ctype)
            # A by-value function type is passed as a pointer to it.
            expr = ctype + (" *" if ctype.endswith("_function") else "")
            f.write(f"_Static_assert(sizeof({expr}) == {size}, "
                    f"\"sizeof({ident}) is not {size}: update VALUE_SIZES\");\n")
        f.write("\n")
        for fn in funcs:
            params = fn.c_params()
            f.write(f"{fn.ret} {fn.name}({params});\n")
            f.write(f"{fn.ret} P{fn.name}({params});\n")
        f.write("\n#endif\n")


def write_desc_c(funcs, path):
    with open(path, "w") as f:
        f.write(HEADER)
        f.write('#include <stddef.h>\n\n#include "log.h"\n\n')
        for fn in funcs:
            if not fn.args:
                continue
            f.write(f"static const struct log_arg_desc args_{fn.name}[] = {{\n")
            for a in fn.args:
                direction = ("LOG_DIR_" + a.direction.upper()
                             if a.direction else "LOG_DIR_VALUE")
                length = c_string(a.length) if a.length else "NULL"
                size = VALUE_SIZES.get(a.ctype, 0) if not a.direction else 0
                enc = value_encoding(a.ctype) if not a.direction else "0"
                f.write(f"    {{ {c_string(a.name)}, {c_string(a.ctype + a.array)}, "
                        f"{direction}, {length}, {size}, {enc} }},\n")
            f.write("};\n")
        f.write("\nconst struct log_func_desc log_funcs[] = {\n")
        for fn in funcs:
            args = f"args_{fn.name}" if fn.args else "NULL"
            f.write(f"    {{ {fn.id}, {c_string(fn.name)}, "
                    f"LOG_CLASS_{fn.cls.upper()}, {c_string(fn.ret)}, "
                    f"{len(fn.args)}, {1 if fn.variadic else 0}, {args} }},\n")
        f.write("};\n")
        f.write(f"const int log_funcs_count = {len(funcs)};\n")


def main(argv):
    if len(argv) != 5:
        raise SystemExit(__doc__)
    funcs = parse_spec(argv[1])
    write_funcs_h(funcs, argv[2])
    write_protos_h(funcs, argv[3])
    write_desc_c(funcs, argv[4])


if __name__ == "__main__":
    main(sys.argv)
