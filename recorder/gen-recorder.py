#!/usr/bin/env python3
"""Generates the recorder's PMPI wrappers from log/mpi-functions.spec.

Usage: gen-recorder.py GEN_FUNCTABLE SPEC OUT_C

Every function gets a wrapper, defined weak so that a hand-written one in
recorder/rec-manual.c (same name, strong) replaces it at link time. A
wrapper calls PMPI_<name>, then appends one record: the by-value arguments,
and each output argument the spec annotation lets it size. An async buffer
is registered in the request-to-buffer table instead, for the Wait/Test
call completing the request to log: a receive's as its status says, a
collective's whole (plain or v-shaped), where MPI writes it. What a wrapper
cannot log (a '?' length) makes the record LOG_REC_PARTIAL, so the replayer
can name what is missing. docs/log-format.md describes what is logged.
"""
import importlib.util
import re
import sys


def load_functable(path):
    spec = importlib.util.spec_from_file_location("functable", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def is_collective(fn):
    """A collective: on a communicator, with no point-to-point peer."""
    names = {a.name for a in fn.args}
    return "comm" in names and not names & {"source", "dest"}


def peers_fn(fn, arg_name):
    """C function giving the spec's size(comm) for argument ARG_NAME: the
    peers of a collective; in a neighbourhood collective, the topology's
    destinations for the send side, its sources for the receive side."""
    if "neighbor_" not in fn.name.lower():
        return "rec_peers"
    if arg_name.startswith("send") or arg_name == "sdispls":
        return "rec_out_degree"
    return "rec_in_degree"


def root_condition(fn, arg):
    """C condition under which a rooted collective's buffer argument is
    written (or, for sendbuf, read)."""
    names = [a.name for a in fn.args]
    if "root" not in names or "comm" not in names:
        return "1"
    scatter = "scatter" in fn.name.lower()
    if arg.name == "buffer":                                # Bcast
        return "rec_coll_writes(comm, root, REC_AT_NONROOT)"
    if arg.name == "recvbuf":           # Scatter: everywhere; Gather, Reduce
        side = "REC_AT_ALL" if scatter else "REC_AT_ROOT"
        return f"rec_coll_writes(comm, root, {side})"
    if arg.name == "sendbuf":           # Scatter: the root; Gather, Reduce
        side = "REC_AT_ROOT" if scatter else "REC_AT_ALL"
        return f"rec_coll_writes(comm, root, {side})"
    return "1"


def elem_type(arg):
    return FT.elem_type(arg)


def count_expr(term, peers="rec_peers"):
    return FT.count_expr(term, peers)


def gen_wrapper(fn, out):
    ret = fn.ret
    params = fn.c_params()
    call_args = ", ".join(a.name for a in fn.args)
    names = [a.name for a in fn.args]
    status_arg = next((a.name for a in fn.args
                       if a.ctype == "MPI_Status *" and a.direction == "out"),
                      None)
    pre, size, put = [], ["0"], []
    partial = False

    if not rec_logs(fn):
        return
    if fn.variadic:
        # Only MPI_Pcontrol: its extra arguments cannot be forwarded.
        out.write(f"__attribute__((weak)) {ret} {fn.name}({params})\n{{\n")
        out.write(f"    return P{fn.name}({call_args});\n}}\n\n")
        return

    for i, a in enumerate(fn.args):
        if a.direction is None:
            continue
        length = a.length
        peers = peers_fn(fn, a.name)
        if a.direction == "in" and fn.name in STRUCT_CTORS and \
                a.name in ("array_of_blocklengths", "array_of_types"):
            # A struct's layout, for showing its data element by element
            # (the other constructors name their old type by value).
            et = elem_type(a)
            n = f"({count_expr(a.length)} > 0 ? {count_expr(a.length)} : 0)"
            size.append(f"(LOG_FIELD_HEAD + (size_t)({n}) * sizeof({et}))")
            put.append(f"    if (ret == MPI_SUCCESS && ({n}) > 0) "
                       f"rec_put_raw(&rec, {i}, 0, {a.name}, "
                       f"(size_t)({n}) * sizeof({et}));\n")
            continue
        if a.direction == "in":
            # Sends log no data (the receiver has it) unless --send-data.
            m = re.match(r"^(.+) x (\w+)$", length or "")
            if m and "@" not in length:
                n = count_expr(m.group(1), peers)
                cond = root_condition(fn, a)
                pre.append(f"    int64_t bytes_{a.name} = (rec_send_data && ret == MPI_SUCCESS && "
                           f"({cond}) && {a.name} != MPI_IN_PLACE) ? "
                           f"rec_data_bytes({n}, {m.group(2)}) : 0;\n")
                size.append(f"(bytes_{a.name} ? LOG_FIELD_HEAD + rec_pack_room(bytes_{a.name}, "
                            f"{m.group(2)}) : 0)")
                put.append(f"    if (bytes_{a.name}) rec_put_data(&rec, {i}, {a.name}, "
                           f"{n}, {m.group(2)}, bytes_{a.name});\n")
            continue
        if a.direction == "async":
            # Registered in the request-to-buffer table; the Wait/Test call
            # completing the request logs it. A receive logs what its
            # status says arrived, a collective its whole buffer, where
            # and when MPI writes it.
            m = re.match(r"^(.+) x (\w+)$", length or "")
            mv = re.match(r"^(\w+)\[\] x (\w+) @ (\w+)$", length or "")
            persistent = 1 if re.search("_init(_c)?$", fn.name) else 0
            coll = is_collective(fn)
            if "request" not in names or not (m or mv) or (mv and not coll):
                partial = True
            elif coll:
                cond = (f"ret == MPI_SUCCESS && ({root_condition(fn, a)}) && "
                        f"{a.name} != MPI_IN_PLACE")
                if mv:
                    counts, dtype, displs = mv.groups()
                    call = (f"rec_req_vcoll(*request, {fn.id}, {a.name}, "
                            f"{peers}(comm), {counts}, sizeof(*{counts}), "
                            f"{displs}, sizeof(*{displs}), {dtype}, "
                            f"{persistent})")
                else:
                    call = (f"rec_req_coll(*request, {fn.id}, {a.name}, "
                            f"{count_expr(m.group(1), peers)}, "
                            f"{m.group(2)}, {persistent})")
                put.append(f"    if ({cond}) {call};\n")
            else:
                put.append(
                    f"    if (ret == MPI_SUCCESS) rec_req_recv(*request, "
                    f"{fn.id}, {a.name}, {count_expr(m.group(1))}, "
                    f"{m.group(2)}, {persistent});\n")
            continue
        # out / inout
        if length in ("?",):
            partial = True
            continue
        if length in ("opaque", "callback", "string", "string[]"):
            continue
        if length == "ptr":
            size.append(f"({a.name} ? LOG_FIELD_HEAD + 8 : 0)")
            put.append(f"    if ({a.name}) rec_put_raw(&rec, {i}, 0, {a.name}, 8);\n")
            continue
        if length and length.startswith("MPI_MAX_") or length == "valuelen+1":
            cap = length if length.startswith("MPI_MAX_") else "valuelen"
            pre.append(f"    size_t len_{a.name} = (ret == MPI_SUCCESS && {a.name}) ? "
                       f"strnlen({a.name}, {cap}) : 0;\n")
            size.append(f"(LOG_FIELD_HEAD + len_{a.name})")
            put.append(f"    if (len_{a.name} || (ret == MPI_SUCCESS && {a.name})) "
                       f"rec_put_field(&rec, {i}, LOG_F_STRING, 0, {a.name}, len_{a.name});\n")
            continue
        m = re.match(r"^(\w+)\[\] x (\w+) @ (\w+)$", length or "")
        if m:
            counts, dtype, displs = m.groups()
            cond = root_condition(fn, a)
            pre.append(f"    int peers_{a.name} = (ret == MPI_SUCCESS && ({cond})) ? "
                       f"{peers}(comm) : 0;\n")
            pre.append(f"    int64_t bytes_{a.name} = rec_vdata_bytes(peers_{a.name}, "
                       f"{counts}, sizeof(*{counts}), {dtype});\n")
            size.append(f"(bytes_{a.name} ? LOG_FIELD_HEAD + bytes_{a.name} : 0)")
            put.append(f"    if (bytes_{a.name}) rec_put_vdata(&rec, {i}, {a.name}, "
                       f"peers_{a.name}, {counts}, sizeof(*{counts}), {displs}, "
                       f"sizeof(*{displs}), {dtype}, bytes_{a.name});\n")
            continue
        m = re.match(r"^(.+) x (\w+)$", length or "")
        if m:
            cond = root_condition(fn, a)
            n = count_expr(m.group(1), peers)
            if status_arg and a.direction == "out":
                bytes_expr = (f"rec_status_bytes({status_arg}, {n}, {m.group(2)})")
            else:
                bytes_expr = f"rec_data_bytes({n}, {m.group(2)})"
            pre.append(f"    int64_t bytes_{a.name} = (ret == MPI_SUCCESS && ({cond}) && "
                       f"{a.name} != MPI_IN_PLACE) ? {bytes_expr} : 0;\n")
            size.append(f"(bytes_{a.name} ? LOG_FIELD_HEAD + rec_pack_room(bytes_{a.name}, "
                        f"{m.group(2)}) : 0)")
            put.append(f"    if (bytes_{a.name}) rec_put_data(&rec, {i}, {a.name}, "
                       f"{n}, {m.group(2)}, bytes_{a.name});\n")
            continue
        et = elem_type(a)
        if et == "MPI_Status":
            if length is not None:  # arrays of statuses: hand-written
                partial = True
                continue
            size.append("LOG_STATUS_ROOM")
            put.append(f"    if (ret == MPI_SUCCESS && {a.name}) "
                       f"log_put_status(&rec, {i}, 0, {a.name});\n")
            continue
        if length is None and not a.array and VALUE_SIZES.get(et) == 4 and \
                FT.value_encoding(et) == "LOG_ENC_HANDLE":
            # One handle (a new request, communicator, ...): a compact
            # HANDLE field.
            pre.append(f"    int n_{a.name} = ret == MPI_SUCCESS && {a.name};\n")
            size.append("LOG_HANDLE_ROOM")
            put.append(f"    if (n_{a.name}) log_put_handle(&rec, {i}, LOG_F_HANDLE, 0, "
                       f"(uint32_t)*{a.name});\n")
            if et == "MPI_Comm":
                size.append(f"(n_{a.name} ? rec_members_room(*{a.name}) : 0)")
                put.append(f"    if (n_{a.name}) rec_put_members(&rec, *{a.name});\n")
            continue
        kind = "LOG_F_RAW"
        if length is None:
            nelem = "1"
        else:
            nelem = count_expr(length, peers)
        ignore = ""
        pre.append(f"    int64_t n_{a.name} = (ret == MPI_SUCCESS && {a.name}{ignore}) ? "
                   f"{nelem} : 0;\n")
        pre.append(f"    if (n_{a.name} < 0) n_{a.name} = 0;\n")
        size.append(f"(LOG_FIELD_HEAD + (size_t)n_{a.name} * sizeof({et}))")
        put.append(f"    if (n_{a.name}) rec_put_field(&rec, {i}, {kind}, 0, {a.name}, "
                   f"(size_t)n_{a.name} * sizeof({et}));\n")
        if et == "MPI_Comm" and length is None:
            size.append(f"(n_{a.name} ? rec_members_room(*{a.name}) : 0)")
            put.append(f"    if (n_{a.name}) rec_put_members(&rec, *{a.name});\n")

    value_args = [(i, a) for i, a in enumerate(fn.args) if a.direction is None]
    # Varints: at most 5 bytes for a 32-bit argument, 10 for a 64-bit one.
    args_bytes = sum(5 if VALUE_SIZES[a.ctype] == 4 else 10
                     for _, a in value_args)

    if ret == "double":  # MPI_Wtime, MPI_Wtick: the value is the output
        size.append("(LOG_FIELD_HEAD + 8)")
        put.insert(0, "    rec_put_field(&rec, LOG_ARG_NONE, LOG_F_RAW, 0, &ret, 8);\n")
    flags = "LOG_REC_PARTIAL" if partial else "0"
    out.write(f"__attribute__((weak)) {ret} {fn.name}({params})\n{{\n")
    out.write(f"    if (!rec_on) return P{fn.name}({call_args});\n")
    if status_arg:
        # The received size (and the matched source and tag, which causal
        # analysis needs) come from the status: take it even when the
        # program passes MPI_STATUS_IGNORE.
        out.write("    MPI_Status rec_status = {0, 0, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS};\n")
        out.write(f"    if ({status_arg} == MPI_STATUS_IGNORE) {status_arg} = &rec_status;\n")
    out.write("    uint64_t t0 = rec_now();\n")
    out.write(f"    {ret} ret = P{fn.name}({call_args});\n")
    out.write("    uint64_t t1 = rec_now();\n")
    out.write("".join(pre))
    out.write("    struct log_rec rec;\n")
    ret_int = "ret" if ret == "int" else "MPI_SUCCESS"
    out.write(f"    if (!rec_begin(&rec, {fn.id}, {flags}, {ret_int}, t0, t1, "
              f"{args_bytes} + {' + '.join(size)}))\n        return ret;\n")
    for _, a in value_args:
        enc = FT.value_encoding(a.ctype)
        if enc == "LOG_ENC_INT":
            out.write(f"    log_put_arg_int(&rec, {a.name});\n")
        elif enc == "LOG_ENC_HANDLE":
            out.write(f"    log_put_arg_handle(&rec, (uint32_t){a.name});\n")
        elif enc == "LOG_ENC_AINT":
            out.write(f"    log_put_arg_aint(&rec, (int64_t){a.name});\n")
        else:
            out.write(f"    log_put_arg_ptr(&rec, (uint64_t)(uintptr_t){a.name});\n")
    out.write("".join(put))
    out.write("    rec_end(&rec);\n    return ret;\n}\n\n")


# Struct constructors whose input arrays of block lengths and member types
# are logged (log-format.md).
STRUCT_CTORS = ("MPI_Type_create_struct", "MPI_Type_create_struct_c")


def rec_logs(fn):
    """Handle conversions (f2c/c2f) and the like return a value, not an
    error code, and touch no MPI state worth logging; the replay stub
    computes them itself."""
    return fn.ret in ("int", "double")


def main(argv):
    if len(argv) != 4:
        raise SystemExit(__doc__)
    ft = load_functable(argv[1])
    global VALUE_SIZES, FT
    VALUE_SIZES = ft.VALUE_SIZES
    FT = ft
    funcs = ft.parse_spec(argv[2])
    with open(argv[3], "w") as out:
        out.write("/* Generated by recorder/gen-recorder.py from "
                  "log/mpi-functions.spec. Do not edit. */\n")
        out.write('#include "rec.h"\n\n')
        out.write("#pragma GCC diagnostic ignored \"-Wunused-variable\"\n")
        out.write("#pragma GCC diagnostic ignored \"-Wmissing-prototypes\"\n\n")
        for fn in funcs:
            gen_wrapper(fn, out)


if __name__ == "__main__":
    main(sys.argv)
