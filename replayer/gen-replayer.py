#!/usr/bin/env python3
"""Generates the replay stub's MPI entry points from log/mpi-functions.spec.

Usage: gen-replayer.py GEN_FUNCTABLE SPEC OUT_C OUT_H

The mirror of recorder/gen-recorder.py. For every function F it emits:

  rpl__auto_F   the generic replay of one call (hidden): takes the next
                event of the log, checks it is a call of F with the same
                by-value arguments, writes every logged output back into
                the program's arguments, returns the logged return code;
  PMPI_F        weak, calls rpl__auto_F: a hand-written PMPI_F in
                replayer/rpl-manual.c replaces it (and may call
                rpl__auto_F for the generic part);
  MPI_F         weak, calls PMPI_F (so a profiling tool can interpose).

OUT_H declares the rpl__auto_F functions for the hand-written code.
"""
import importlib.util
import io
import re
import sys


def load_functable(path):
    spec = importlib.util.spec_from_file_location("functable", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def elem_type(arg):
    return FT.elem_type(arg)


def count_expr(term):
    """A LENGTH term as C (int64_t); peers from the stub's table."""
    return FT.count_expr(term, "rpl_comm_peers")


def value_expr(a):
    """The by-value argument as the int64_t the log's reader returns."""
    size = VALUE_SIZES[a.ctype]
    if a.ctype.endswith("_function") or a.ctype == "MPI_File" or \
            a.ctype.startswith("MPI_T_") and size == 8:
        return f"(int64_t)(intptr_t){a.name}"
    if size == 4:
        return f"(int64_t)(int32_t){a.name}"
    return f"(int64_t){a.name}"


def out_action(fn, i, a):
    """C statement writing field `f` of argument I back, or None."""
    length = a.length
    names = [x.name for x in fn.args]
    if a.direction is None:
        return None
    if a.direction == "in" and a.array and \
            fn.name in ("MPI_Type_create_struct", "MPI_Type_create_struct_c"):
        # A struct's logged layout: the program's must be the same.
        return (f"rpl_check_raw(&c, &f, {a.name}, ({count_expr(length)}) * "
                f"(int64_t)sizeof({elem_type(a)}));")
    if a.direction == "in":
        # Logged send data (drdb record --send-data): checked against what
        # the program sends now, where the layout is simple.
        m = re.match(r"^(.+) x (\w+)$", length or "")
        if m and "@" not in length and "size(" not in m.group(1):
            return (f"rpl_check_sent(&c, &f, {a.name}, "
                    f"{count_expr(m.group(1))}, {m.group(2)});")
        return "rpl_out_sent(&c, &f);"

    if a.direction == "async":
        return None  # registered after the call (see gen_stub)
    if length in ("opaque", "callback", "string", "string[]", "?"):
        return None
    if length == "ptr":
        return f"rpl_out_raw(&c, &f, {a.name}, 8);"
    if length and (length.startswith("MPI_MAX_") or length == "valuelen+1"):
        cap = length if length.startswith("MPI_MAX_") else "valuelen + 1"
        return f"rpl_out_string(&c, &f, {a.name}, {cap});"
    m = re.match(r"^(\w+)\[\] x (\w+) @ (\w+)$", length or "")
    if m:
        counts, dtype, displs = m.groups()
        return (f"rpl_out_vdata(&c, &f, {a.name}, {counts}, "
                f"sizeof(*{counts}), {displs}, sizeof(*{displs}), {dtype}, "
                f"rpl_comm_peers(comm));")
    m = re.match(r"^(.+) x (\w+)$", length or "")
    if m:
        return (f"rpl_out_data(&c, &f, {a.name}, {count_expr(m.group(1))}, "
                f"{m.group(2)});")
    et = elem_type(a)
    if et == "MPI_Status":
        if length is not None:
            return None
        return f"rpl_out_status(&c, &f, {a.name});"
    if length is None and not a.array and VALUE_SIZES.get(et) == 4 and \
            FT.value_encoding(et) == "LOG_ENC_HANDLE":
        return f"rpl_out_handle(&c, &f, {a.name});"
    nelem = "1" if length is None else count_expr(length)
    return f"rpl_out_raw(&c, &f, {a.name}, ({nelem}) * (int64_t)sizeof({et}));"


def async_register(fn, a):
    """C statement registering an async buffer with its request."""
    names = [x.name for x in fn.args]
    if "request" not in names:
        return None
    comm = "comm" if "comm" in names else "MPI_COMM_NULL"
    persistent = 1 if re.search(r"_init(_c)?$", fn.name) else 0
    m = re.match(r"^(\w+)\[\] x (\w+) @ (\w+)$", a.length or "")
    if m:
        counts, dtype, displs = m.groups()
        return (f"rpl_req_register_v(*request, {fn.id}, {a.name}, {counts}, "
                f"sizeof(*{counts}), {displs}, sizeof(*{displs}), {dtype}, "
                f"{comm}, {persistent});")
    m = re.match(r"^(.+) x (\w+)$", a.length or "")
    if m:
        return (f"rpl_req_register(*request, {fn.id}, {a.name}, "
                f"{count_expr(m.group(1))}, {m.group(2)}, {comm}, "
                f"{persistent});")
    return None


def gen_stub(fn, out, hdr):
    if "eighbor_" in fn.name:
        # size(comm) of a neighbourhood collective is the topology's
        # degree, which the stub does not track: the data bounds the copy.
        body = io.StringIO()
        gen_stub_body(fn, body, hdr)
        out.write(body.getvalue().replace("rpl_comm_peers(comm)",
                                          "RPL_MANY_PEERS"))
    else:
        gen_stub_body(fn, out, hdr)


def gen_stub_body(fn, out, hdr):
    ret = fn.ret
    params = fn.c_params()
    call_args = ", ".join(a.name for a in fn.args)
    if fn.variadic or ret not in ("int", "double"):
        # Not logged by the recorder (MPI_Pcontrol's extra arguments, local
        # conversions): hand-written in rpl-manual.c.
        return
    value_args = [a for a in fn.args if a.direction is None]
    skip = 0
    for k, a in enumerate(value_args):
        if a.ctype.endswith("_function"):
            skip |= 1 << k
    comm = "comm" if any(a.name == "comm" and a.ctype == "MPI_Comm"
                         for a in value_args) else "MPI_COMM_WORLD"
    hdr.write(f"{ret} rpl__auto_{fn.name}({params});\n")
    out.write(f"{ret} rpl__auto_{fn.name}({params})\n{{\n")
    out.write("    struct rpl_call c;\n    struct rpl_field f;\n")
    if value_args:
        vals = ", ".join(value_expr(a) for a in value_args)
        out.write(f"    const int64_t v[] = {{{vals}}};\n")
        out.write(f"    rpl_begin(&c, {fn.id}, v, {len(value_args)}, "
                  f"{skip:#x}u);\n")
    else:
        out.write(f"    rpl_begin(&c, {fn.id}, NULL, 0, 0);\n")
    cases = []
    for i, a in enumerate(fn.args):
        act = out_action(fn, i, a)
        if act:
            cases.append(f"        case {i}: {act} break;\n")
    if ret == "double":
        cases.append("        case LOG_ARG_NONE: "
                     "rpl_out_raw(&c, &f, &c.dret, 8); break;\n")
    out.write("    while (rpl_field(&c, &f)) {\n        switch (f.arg) {\n")
    out.write("".join(cases))
    out.write("        default: rpl_out_other(&c, &f); break;\n")
    out.write("        }\n    }\n")
    for a in fn.args:
        if a.direction == "async":
            reg = async_register(fn, a)
            if reg:
                out.write(f"    if (c.ret == MPI_SUCCESS) {reg}\n")
        if a.direction == "out" and elem_type(a) == "MPI_Comm" and \
                a.length is None and not a.array:
            out.write(f"    if (c.ret == MPI_SUCCESS && {a.name}) "
                      f"rpl_comm_new(&c, *{a.name});\n")
    if ret == "double":
        out.write("    rpl_end(&c, MPI_COMM_NULL);\n    return c.dret;\n}\n\n")
    else:
        out.write(f"    return rpl_end(&c, {comm});\n}}\n\n")
    out.write(f"__attribute__((weak)) {ret} P{fn.name}({params})\n{{\n"
              f"    return rpl__auto_{fn.name}({call_args});\n}}\n\n")
    out.write(f"__attribute__((weak)) {ret} {fn.name}({params})\n{{\n"
              f"    return P{fn.name}({call_args});\n}}\n\n")


def main(argv):
    if len(argv) != 5:
        raise SystemExit(__doc__)
    ft = load_functable(argv[1])
    global VALUE_SIZES, FT
    VALUE_SIZES = ft.VALUE_SIZES
    FT = ft
    funcs = ft.parse_spec(argv[2])
    banner = ("/* Generated by replayer/gen-replayer.py from "
              "log/mpi-functions.spec. Do not edit. */\n")
    with open(argv[3], "w") as out, open(argv[4], "w") as hdr:
        hdr.write(banner)
        hdr.write("#ifndef DRDB_RPL_AUTO_H\n#define DRDB_RPL_AUTO_H\n\n")
        out.write(banner)
        out.write('#include "rpl.h"\n\n')
        out.write("#pragma GCC diagnostic ignored \"-Wunused-variable\"\n")
        out.write("#pragma GCC diagnostic ignored "
                  "\"-Wmissing-prototypes\"\n\n")
        for fn in funcs:
            gen_stub(fn, out, hdr)
        hdr.write("\n#endif\n")


if __name__ == "__main__":
    main(sys.argv)
