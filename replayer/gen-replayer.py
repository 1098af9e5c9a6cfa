#!/usr/bin/env python3
"""The replay stub's back end: MPI entry points from log/mpi-functions.spec.

Usage: gen-replayer.py SPEC OUT_C OUT_H

The mirror of recorder/gen-recorder.py: it renders, on the replay side, the
same plan (log/mpispec.py) of what each argument carries. For every
function F it emits MPI_F, which calls PMPI_F, and PMPI_F:

  auto         the generic replay of one call: takes the next event of the
               log, checks it is a call of F with the same by-value
               arguments, writes every logged output back into the
               program's arguments, registers the buffers of the request it
               starts, returns the logged return code;
  manual,      calls the hand-written hook rpl_F(struct args_F *)
  manual(rpl)  (replayer/rpl-*.c) with the argument struct
               (log/drdb_mpi_args.h). OUT_H declares the hooks and, for each
               logged function, the parts of the generic replay a hook
               composes: rpl_begin_F (the next event, its arguments
               checked), rpl_fields_F (the logged outputs written back,
               buffers registered) and rpl_replay_F (the whole of it); and
               RPL_TWINS_F(M, ...), which instantiates the hook body M for
               F and its large-count twin F_c when they share the hook
               (log/mpispec.py: hook_twin).
"""
import sys

import mpispec as S  # log/mpispec.py: meson puts log/ on PYTHONPATH


def peers(kind, comm):
    """A communicator's peers: the stub knows the sizes of communicators
    (from the members the recorder logged), not their topologies: a
    neighbourhood collective's logged data is the only bound."""
    return "RPL_MANY_PEERS" if kind in ("indegree", "outdegree") \
        else f"rpl_comm_size({comm})" if kind == "lsize" \
        else f"rpl_comm_peers({comm})"


def count(term, ref):
    return S.count_expr(term, peers, ref)


def value_expr(a, ref):
    """The by-value argument as the int64_t the log's reader returns."""
    v = ref(a.name)
    size = S.VALUE_SIZES[a.ctype]
    if a.ctype.endswith("_function") or a.ctype == "MPI_File" or \
            a.ctype.startswith("MPI_T_") and size == 8:
        return f"(int64_t)(intptr_t){v}"
    if size == 4:
        return f"(int64_t)(int32_t){v}"
    return f"(int64_t){v}"


def vec_peers(fn, counts, ref):
    return count(fn.arg(counts).length, ref)


def out_action(fn, o, ref):
    """C statement writing field `f` of O's argument back, or None."""
    x = ref(o.arg.name)
    k = o.kind
    if k == "LOGGED_IN" and not o.checked:
        # Logged for drdb check only (a struct's displacements: absolute
        # addresses may differ in the replay).
        return "rpl_out_noted(c, &f);"
    if k == "LOGGED_IN":
        # A struct's logged layout: the program's must be the same.
        return (f"rpl_check_raw(c, &f, {x}, ({count(o.n, ref)}) * "
                f"(int64_t)sizeof({o.etype}));")
    if k == "SEND":
        # Logged send data (drdb record --send-data): checked against what
        # the program sends now, where the layout is simple.
        if o.checkable:
            return (f"rpl_check_sent(c, &f, {x}, {count(o.n, ref)}, "
                    f"{ref(o.type)});")
        return "rpl_out_sent(c, &f);"
    if k == "IN":
        return "rpl_out_sent(c, &f);"
    if k == "PTR":
        return f"rpl_out_raw(c, &f, {x}, 8);"
    if k == "SPLIT_END":
        return f"rpl_split_data(c, &f, {ref(o.fh)});"
    if k == "STRING" and o.entry:
        return f"rpl_out_string(c, &f, {x}, cap_{o.arg.name});"
    if k == "STRING":
        cap = o.cap if o.cap.startswith("MPI_MAX_") else \
            f"{ref('valuelen')} + 1"
        return f"rpl_out_string(c, &f, {x}, {cap});"
    if k == "VDATA":
        return (f"rpl_out_vdata(c, &f, {x}, {ref(o.counts)}, "
                f"sizeof(*{ref(o.counts)}), {ref(o.displs)}, "
                f"sizeof(*{ref(o.displs)}), {ref(o.type)}, "
                f"{vec_peers(fn, o.counts, ref)});")
    if k == "DATA":
        return (f"rpl_out_data(c, &f, {x}, {count(o.n, ref)}, {ref(o.type)});")
    if k == "STATUS":
        return f"rpl_out_status(c, &f, {x});"
    if k == "HANDLE":
        return f"rpl_out_handle(c, &f, {x});"
    if k == "RAW":
        nelem = "1" if o.n is None else count(o.n, ref)
        return (f"rpl_out_raw(c, &f, {x}, ({nelem}) * "
                f"(int64_t)sizeof({o.etype}));")
    return None  # ASYNC (registered after), PARTIAL, NONE


def after_fields(fn, o, ref):
    """C statement run once the fields are written, on success: register
    an async buffer with its request, learn a new communicator's size."""
    x = ref(o.arg.name)
    persistent = 1 if S.is_persistent(fn) else 0
    if o.kind == "ASYNC" and o.shape == "vcoll":
        return (f"rpl_req_register_v({ref('request')}, {fn.id}, {x}, "
                f"{ref(o.counts)}, sizeof(*{ref(o.counts)}), "
                f"{ref(o.displs)}, sizeof(*{ref(o.displs)}), {ref(o.type)}, "
                f"{vec_peers(fn, o.counts, ref)}, {persistent});")
    if o.kind == "SPLIT_END":
        return f"rpl_split_end({ref(o.fh)});"
    if o.kind == "SPLIT_BEGIN":
        return (f"rpl_split_begin({ref('fh')}, {x}, {count(o.n, ref)}, "
                f"{ref(o.type)});")
    if o.kind == "ASYNC" and fn.kind == "partitioned":
        # MPI_Parrived writes each partition as it arrives
        return (f"rpl_req_register_parts({ref('request')}, {fn.id}, {x}, "
                f"{ref('partitions')}, {ref('count')}, {ref(o.type)});")
    if o.kind == "ASYNC":
        return (f"rpl_req_register({ref('request')}, {fn.id}, {x}, "
                f"{count(o.n, ref)}, {ref(o.type)}, {persistent});")
    if o.kind == "HANDLE" and o.newcomm and o.arg.direction == "out":
        return f"if ({x}) rpl_comm_new(c, *{x});"
    return None


def comm_of(fn):
    """The communicator whose error handler a failed call runs."""
    return "comm" if any(a.name == "comm" and a.ctype == "MPI_Comm"
                         for a in fn.value_args()) else "MPI_COMM_WORLD"


def emit_begin(fn, out, ref):
    value_args = fn.value_args()
    skip = 0
    for k, a in enumerate(value_args):
        if a.ctype.endswith("_function"):
            skip |= 1 << k
    if value_args:
        vals = ", ".join(value_expr(a, ref) for a in value_args)
        out.write(f"    const int64_t v[] = {{{vals}}};\n")
        out.write(f"    rpl_begin(c, {fn.id}, v, {len(value_args)}, "
                  f"{skip:#x}u);\n")
    else:
        out.write(f"    rpl_begin(c, {fn.id}, NULL, 0, 0);\n")


def emit_fields(fn, out, ref):
    out.write("    struct log_field f;\n")
    plan = S.plan(fn)
    for o in plan:
        # A capacity the call replaces: taken before the fields write it.
        if o is not None and o.kind == "STRING" and o.entry:
            e = ref(o.entry)
            out.write(f"    int cap_{o.arg.name} = {e} ? *{e} : 0;\n")
    cases = []
    for i, o in enumerate(plan):
        act = out_action(fn, o, ref) if o is not None else None
        if act:
            cases.append(f"        case {i}: {act} break;\n")
    if fn.ret == "double":
        cases.append("        case LOG_ARG_NONE: "
                     "rpl_out_raw(c, &f, &c->dret, 8); break;\n")
    out.write("    while (rpl_field(c, &f)) {\n        switch (f.arg) {\n")
    out.write("".join(cases))
    out.write("        default: rpl_out_other(c, &f); break;\n")
    out.write("        }\n    }\n")
    for o in plan:
        act = after_fields(fn, o, ref) if o is not None else None
        if act:
            out.write(f"    if (c->ret == MPI_SUCCESS) {act}\n")


def emit_end(fn, out):
    if fn.ret == "double":
        out.write("    rpl_end(c, MPI_COMM_NULL);\n    return c->dret;\n")
    else:
        out.write(f"    return rpl_end(c, {comm_of(fn)});\n")


def gen_auto(fn, out):
    """PMPI_F: the generic replay, the arguments as parameters, serialized
    among threads (RPL_SERIAL, rpl.h)."""
    out.write(f"static inline __attribute__((always_inline)) {fn.ret} "
              f"rpl__{fn.name}({fn.c_params()})\n{{\n")
    out.write("    struct rpl_call call, *c = &call;\n")
    emit_begin(fn, out, lambda n: n)
    emit_fields(fn, out, lambda n: n)
    emit_end(fn, out)
    out.write("}\n\n")
    call_args = ", ".join(a.name for a in fn.args)
    out.write(f"{fn.ret} P{fn.name}({fn.c_params()})\n{{\n"
              f"    RPL_SERIAL({fn.ret}, rpl__{fn.name}({call_args}));\n}}\n\n")


def gen_hooked(fn, out, hdr):
    """PMPI_F calls the hook; the generic parts go to the header for it."""
    call_args = ", ".join(a.name for a in fn.args)
    out.write(f"{fn.ret} P{fn.name}({fn.c_params()})\n{{\n")
    out.write(f"    struct args_{fn.name} a = {{{call_args or '0'}}};\n")
    out.write(f"    RPL_SERIAL({fn.ret}, rpl_{fn.name}(&a));\n}}\n\n")

    hdr.write(f"{fn.ret} rpl_{fn.name}(struct args_{fn.name} *a);\n")
    if not fn.logged:
        hdr.write("\n")
        return
    ref = lambda n: f"a->{n}"
    hdr.write(f"static inline void rpl_begin_{fn.name}(struct rpl_call *c, "
              f"const struct args_{fn.name} *a)\n{{\n    (void)a;\n")
    emit_begin(fn, hdr, ref)
    hdr.write("}\n")
    hdr.write(f"static inline void rpl_fields_{fn.name}(struct rpl_call *c, "
              f"struct args_{fn.name} *a)\n{{\n    (void)a;\n")
    emit_fields(fn, hdr, ref)
    hdr.write("}\n")
    comm = comm_of(fn)
    hdr.write(f"static inline {fn.ret} rpl_replay_{fn.name}("
              f"struct args_{fn.name} *a)\n{{\n"
              f"    struct rpl_call call, *c = &call;\n"
              f"    rpl_begin_{fn.name}(c, a);\n"
              f"    rpl_fields_{fn.name}(c, a);\n")
    if comm == "comm":
        comm = "a->comm"
    if fn.ret == "double":
        hdr.write("    rpl_end(c, MPI_COMM_NULL);\n    return c->dret;\n}\n\n")
    else:
        hdr.write(f"    return rpl_end(c, {comm});\n}}\n\n")


def gen_entry(fn, out):
    """MPI_F calls PMPI_F, so a profiling tool can interpose."""
    call_args = ", ".join(a.name for a in fn.args)
    out.write(f"{fn.ret} {fn.name}({fn.c_params()})\n{{\n"
              f"    return P{fn.name}({call_args});\n}}\n\n")


def main(argv):
    if len(argv) != 4:
        raise SystemExit(__doc__)
    spec = S.parse_spec(argv[1])
    banner = ("/* Generated by replayer/gen-replayer.py from "
              "log/mpi-functions.spec. Do not edit. */\n")
    with open(argv[2], "w") as out, open(argv[3], "w") as hdr:
        hdr.write(banner)
        hdr.write("/* The replay stub's hooks (the spec's manual and "
                  "manual(rpl) functions) and\n * the generic parts they "
                  "compose; included by rpl.h. */\n")
        hdr.write("#ifndef DRDB_RPL_HOOKS_H\n#define DRDB_RPL_HOOKS_H\n\n")
        out.write(banner)
        out.write('#include "rpl.h"\n\n')
        out.write("#pragma GCC diagnostic ignored \"-Wunused-variable\"\n")
        out.write("#pragma GCC diagnostic ignored "
                  "\"-Wmissing-prototypes\"\n\n")
        for fn in spec.funcs:
            if fn.rpl_hook:
                gen_hooked(fn, out, hdr)
                hdr.write(S.twins_define(fn, "RPL"))
            elif not fn.logged:
                raise SystemExit(f"{argv[1]}:{fn.lineno}: {fn.name} is not "
                                 "logged: the stub needs a hook for it "
                                 "(class manual(rpl))")
            else:
                gen_auto(fn, out)
            gen_entry(fn, out)
        hdr.write("#endif\n")


if __name__ == "__main__":
    main(sys.argv)
