#!/usr/bin/env python3
"""The recorder's back end: PMPI wrappers from log/mpi-functions.spec.

Usage: gen-recorder.py SPEC OUT_C OUT_H OUT_REAL

For every function the recorder logs (log/mpispec.py: Func.logged) it emits
MPI_<name>, which calls MPICH's PMPI_<name> and appends one record, and
exports PMPI_<name> as an alias of it: MPICH's mpi_f08 bindings call
PMPI_<name> directly. The recorder's own calls of PMPI_<name> (the
wrappers', the hooks') reach MPICH's, through a table of pointers that
OUT_REAL declares (rec_real_<name>, resolved in libmpich.so.12 with dlsym
when the library is loaded) and a macro PMPI_<name>(...) that calls through it; so
does a call arriving while rec_busy is set (MPI's own calls):

  auto         the whole wrapper: the by-value arguments, then each output
               as log/mpispec.py's plan says (replayer/gen-replayer.py renders
               the same plan on the replay side). An async buffer is
               registered in the request-to-buffer table instead, for the
               Wait/Test call completing the request to log it. What the
               plan cannot size (PARTIAL) makes the record LOG_REC_PARTIAL
               when the call succeeded, so the replayer can name what is
               missing (a failed call's outputs are undefined: its error
               replays).
  manual,      a skeleton that builds the argument struct (struct
  manual(rec)  args_<name>, log/drdb_mpi_args.h) and calls the hand-written
               hook rec_<name>(struct rec_call *, struct args_<name> *)
               (recorder/rec-*.c). OUT_H declares the hooks and, for each,
               rec_pmpi_<name> (times the PMPI call), rec_put_args_<name>
               (writes the by-value arguments) and rec_frame_<name> (starts
               the record with them); for a function whose large-count
               twin <name>_c shares its hook (log/mpispec.py: hook_twin),
               REC_TWINS_<name>(M, ...), which instantiates the hook body
               M for both.

docs/log-format.md describes what is logged.
"""
import sys

import mpispec as S  # log/mpispec.py: meson puts log/ on PYTHONPATH


def peers(kind, comm):
    """A collective's peer terms (a neighbourhood collective's, indegree
    and outdegree: topo_peers)."""
    return {"size": "rec_peers", "lsize": "rec_comm_size"}[kind] + \
        f"({comm})"


def topo_peers(kind, comm):
    """A neighbourhood collective's peer terms, from the rec_topo its
    wrapper asked MPI for once (rec.h)."""
    return {"indegree": "rec_topo.in", "outdegree": "rec_topo.out"}[kind]


def array_peers(fn):
    """How FN's peer terms are computed (its count arrays' lengths, its
    buffers' spans): a neighbourhood collective's from its rec_topo."""
    return topo_peers if S.is_neighbor_coll(fn) else peers


def count(term, fn):
    """C of a LENGTH term of FN (its peer terms: array_peers)."""
    return S.count_expr(term, array_peers(fn))


def at_cond(o):
    """C condition under which a rooted collective's buffer is written (or,
    for an input, read) here."""
    if not o.at:
        return "1"
    return f"rec_coll_writes(comm, root, REC_AT_{o.at.upper()})"


def vec_peers(fn, counts):
    """The number of peers of a v-shaped buffer: its counts array's
    length."""
    return count(fn.arg(counts).length, fn)


def render(fn, i, o, pre, size, put):
    """Appends the C of output plan O (argument I) to PRE, SIZE and PUT;
    returns True when the record cannot hold it (PARTIAL)."""
    x = o.arg.name
    k = o.kind
    if k == "LOGGED_IN":
        n = f"({count(o.n, fn)} > 0 ? {count(o.n, fn)} : 0)"
        size.append(f"(LOG_FIELD_HEAD + (size_t)({n}) * sizeof({o.etype}))")
        put.append(f"    if (ret == MPI_SUCCESS && ({n}) > 0) "
                   f"rec_put_raw(&rec, {i}, 0, {x}, "
                   f"(size_t)({n}) * sizeof({o.etype}));\n")
    elif k == "SEND":
        # Sends log no data (the receiver has it) unless --send-data.
        n = count(o.n, fn)
        pre.append(f"    int64_t bytes_{x} = (rec_send_data && ret == "
                   f"MPI_SUCCESS && ({at_cond(o)}) && {x} != MPI_IN_PLACE) ? "
                   f"rec_data_bytes({n}, {o.type}) : 0;\n")
        size.append(f"(bytes_{x} ? LOG_FIELD_HEAD + rec_pack_room(bytes_{x}, "
                    f"{o.type}) : 0)")
        put.append(f"    if (bytes_{x}) rec_put_data(&rec, {i}, {x}, {n}, "
                   f"{o.type}, bytes_{x});\n")
    elif k == "ASYNC":
        # Registered in the request-to-buffer table; the Wait/Test call
        # completing the request logs it: a receive what its status says
        # arrived, a collective its whole buffer, where MPI writes it.
        persistent = 1 if S.is_persistent(fn) else 0
        if o.shape == "recv" and fn.kind == "partitioned":
            # MPI_Parrived logs each partition as it arrives
            put.append(f"    if (ret == MPI_SUCCESS) rec_req_parts(request, "
                       f"{fn.id}, {x}, partitions, count, {o.type});\n")
            return False
        if o.shape == "recv":
            put.append(f"    if (ret == MPI_SUCCESS) rec_req_recv(request, "
                       f"{fn.id}, {x}, {count(o.n, fn)}, {o.type}, "
                       f"{persistent});\n")
            return False
        # Registered whenever the call made a request, as the stub does
        # (MPICH's builtin requests pair entries alike on both sides:
        # log/buf.h), with nothing to log where the buffer is not
        # significant or MPI_IN_PLACE.
        sig = f"({at_cond(o)}) && {x} != MPI_IN_PLACE"
        if o.shape == "vcoll":
            call = (f"rec_req_vcoll(request, {fn.id}, {x}, "
                    f"({sig}) ? {vec_peers(fn, o.counts)} : 0, {o.counts}, "
                    f"sizeof(*{o.counts}), {o.displs}, sizeof(*{o.displs}), "
                    f"{o.type}, {persistent})")
        else:
            call = (f"rec_req_coll(request, {fn.id}, {x}, "
                    f"({sig}) ? {count(o.n, fn)} : 0, {o.type}, "
                    f"{persistent})")
        put.append(f"    if (ret == MPI_SUCCESS) {call};\n")
    elif k == "SPLIT_BEGIN":
        put.append(f"    if (ret == MPI_SUCCESS) rec_split_begin(fh, {x}, "
                   f"{count(o.n, fn)}, {o.type});\n")
    elif k == "SPLIT_END":
        st = S.status_arg(fn)
        pre.append(f"    struct log_buf *sb_{x} = rec_split_end({o.fh});\n")
        pre.append(f"    int64_t bytes_{x} = (ret == MPI_SUCCESS && sb_{x}) ? "
                   f"rec_buf_bytes(sb_{x}, {st}) : 0;\n")
        size.append(f"(bytes_{x} ? rec_buf_room(sb_{x}, bytes_{x}) : 0)")
        put.append(f"    if (bytes_{x}) rec_put_buf(&rec, {i}, 0, sb_{x}, "
                   f"bytes_{x});\n")
    elif k == "PARTIAL":
        return True
    elif k == "PTR":
        size.append(f"({x} ? LOG_FIELD_HEAD + 8 : 0)")
        put.append(f"    if ({x}) rec_put_raw(&rec, {i}, 0, {x}, 8);\n")
    elif k == "STRING":
        # Written when the call succeeds and, for a lookup (an out 'flag':
        # MPI_Info_get, MPI_Info_get_string), finds the key. MPI writes at
        # most cap - 1 bytes and a NUL; with an entry capacity (cap_X,
        # taken before the call) nothing when it is 0 (a size query).
        cond = f"ret == MPI_SUCCESS && {x}"
        if any(a.name == "flag" and a.direction == "out" for a in fn.args):
            cond += " && (!flag || *flag)"
        if o.entry:
            cond += f" && cap_{x} > 0"
            cap = f"(size_t)cap_{x} - 1"
        else:
            cap = o.cap if o.cap.startswith("MPI_MAX_") else "valuelen"
        pre.append(f"    int put_{x} = {cond};\n")
        pre.append(f"    size_t len_{x} = put_{x} ? strnlen({x}, {cap}) : 0;\n")
        size.append(f"(LOG_FIELD_HEAD + len_{x})")
        put.append(f"    if (put_{x}) rec_put_field(&rec, {i}, LOG_F_STRING, "
                   f"0, {x}, len_{x});\n")
    elif k == "VDATA":
        pre.append(f"    int peers_{x} = (ret == MPI_SUCCESS && "
                   f"({at_cond(o)})) ? {vec_peers(fn, o.counts)} : 0;\n")
        pre.append(f"    int64_t bytes_{x} = rec_vdata_bytes(peers_{x}, "
                   f"{o.counts}, sizeof(*{o.counts}), {o.type});\n")
        size.append(f"(bytes_{x} ? LOG_FIELD_HEAD + bytes_{x} : 0)")
        put.append(f"    if (bytes_{x}) rec_put_vdata(&rec, {i}, {x}, "
                   f"peers_{x}, {o.counts}, sizeof(*{o.counts}), {o.displs}, "
                   f"sizeof(*{o.displs}), {o.type}, bytes_{x});\n")
    elif k == "DATA":
        n = count(o.n, fn)
        st = S.status_arg(fn)
        if st and o.arg.direction == "out":
            nbytes = f"rec_status_bytes({st}, {n}, {o.type})"
        else:
            nbytes = f"rec_data_bytes({n}, {o.type})"
        pre.append(f"    int64_t bytes_{x} = (ret == MPI_SUCCESS && "
                   f"({at_cond(o)}) && {x} != MPI_IN_PLACE) ? {nbytes} : 0;\n")
        size.append(f"(bytes_{x} ? LOG_FIELD_HEAD + rec_pack_room(bytes_{x}, "
                    f"{o.type}) : 0)")
        put.append(f"    if (bytes_{x}) rec_put_data(&rec, {i}, {x}, {n}, "
                   f"{o.type}, bytes_{x});\n")
    elif k == "STATUS":
        # Also on an error: MPI sets the status of a truncated receive.
        size.append("LOG_STATUS_ROOM")
        put.append(f"    if ({x}) log_put_status(&rec, {i}, 0, {x});\n")
    elif k == "HANDLE":
        # One handle (a new request, communicator, ...): a compact HANDLE
        # field; a communicator's members follow.
        # Also on an error (MPI_ERRORS_RETURN): the program sees what MPI
        # left there (MPI_COMM_NULL, or its own value).
        pre.append(f"    int n_{x} = {x} != NULL;\n")
        size.append("LOG_HANDLE_ROOM")
        put.append(f"    if (n_{x}) log_put_handle(&rec, {i}, LOG_F_HANDLE, "
                   f"0, (uint32_t)*{x});\n")
        if o.newcomm:
            # A nonblocking constructor's new communicator is not made
            # until its request completes: MPICH has not set its groups
            # (their lookup asserts). MPI_Comm_idup's has the groups of
            # the one it duplicates (MPI 4.0, 7.4.2): logged from that.
            c = "comm" if "nb" in fn.flags else f"*{x}"
            m = f"(ret == MPI_SUCCESS && n_{x})"
            size.append(f"({m} ? rec_members_room({c}) : 0)")
            put.append(f"    if {m} rec_put_members(&rec, {c});\n")
    elif k == "RAW":
        # One element also on an error: what MPI left there (a file
        # handle it did not set) is what the program sees.
        nelem = "1" if o.n is None else count(o.n, fn)
        ok = f"{x}" if o.n is None else f"ret == MPI_SUCCESS && {x}"
        pre.append(f"    int64_t n_{x} = ({ok}) ? {nelem} : 0;\n")
        pre.append(f"    if (n_{x} < 0) n_{x} = 0;\n")
        size.append(f"(LOG_FIELD_HEAD + (size_t)n_{x} * sizeof({o.etype}))")
        put.append(f"    if (n_{x}) rec_put_field(&rec, {i}, LOG_F_RAW, 0, "
                   f"{x}, (size_t)n_{x} * sizeof({o.etype}));\n")
    return False


def pins(fn, ref):
    """C pinning the handles FN is about to free (rec.h, "handles"), before
    its PMPI call: the requests of a completion or MPI_Request_free, the
    object of MPI_Comm_free, MPI_Type_free, ...; None for other functions.
    REF(name) is how the C refers to an argument."""
    if fn.kind in ("completion", "request-free"):
        for a in fn.args:
            if a.name == "request" and a.direction:
                return f"rec_pin_handles({ref('request')}, 1)"
            if a.name == "array_of_requests":
                return (f"rec_pin_handles({ref('array_of_requests')}, "
                        f"{ref(a.length)})")
    freed, size = freed_arg(fn)
    if size == 4:
        return f"rec_pin_handles({ref(freed)}, 1)"
    return None


def freed_arg(fn):
    """The argument holding the object FN frees (the spec's role 'free',
    its slot 'freed': MPI_Comm_free's comm, MPI_File_close's fh, ...) and
    the size of its handle: 4 (a 32-bit handle, which MPI sets to its null
    handle), 8 (an MPI_File: a pointer); (None, 0) for other functions.
    The record logs its value before the call (docs/log-format.md) for
    `drdb check`'s leak check: a 32-bit handle as REQUEST of argument
    none, a pointer as an ARRAY field of one element."""
    if "freed" not in fn.slots:
        return None, 0
    a = fn.args[fn.slots["freed"]]
    return a.name, S.handle_size(a)


def array_enc(a):
    """The encoding of an element of count array A (mpispec count_arrays)."""
    return S.value_encoding(S.elem_type(a).replace("const ", ""))


def array_cond(where, ref):
    """C condition under which a count array (where: mpispec count_arrays)
    is significant here, its arguments as REF(name)."""
    if where == "root":
        return (f"rec_coll_writes({ref('comm')}, {ref('root')}, "
                f"REC_AT_ROOT)")
    if where == "send":
        return f"{ref('sendbuf')} != MPI_IN_PLACE"
    return "1"


def new_handles(fn):
    """The arguments in which FN returns a new handle (a request, a
    communicator, a datatype, ...), which MPI may have taken from an object
    another thread is freeing."""
    if fn.kind in ("completion", "request-free", "cancel", "start") or \
            pins(fn, lambda n: n):
        return []
    return [o.arg.name for o in S.plan(fn)
            if o is not None and o.kind == "HANDLE" and
            (o.arg.direction == "out" or o.arg.name == "request")]


def args_room(fn):
    """Bytes the by-value arguments can take as varints: at most 5 for a
    32-bit argument, 10 for a 64-bit one."""
    return sum(5 if S.VALUE_SIZES[a.ctype] == 4 else 10
               for a in fn.value_args())


def put_args(fn, out, rec, ref):
    """Writes the by-value arguments of FN (each as REF(name)) into REC."""
    for a in fn.value_args():
        v = ref(a.name)
        enc = S.value_encoding(a.ctype)
        if enc == "LOG_ENC_INT":
            out.write(f"    log_put_arg_int({rec}, {v});\n")
        elif enc == "LOG_ENC_HANDLE":
            out.write(f"    log_put_arg_handle({rec}, (uint32_t){v});\n")
        elif enc == "LOG_ENC_AINT":
            out.write(f"    log_put_arg_aint({rec}, (int64_t){v});\n")
        else:
            out.write(f"    log_put_arg_ptr({rec}, (uint64_t)(uintptr_t){v});\n")


def pending_flag(fn, flags, ret):
    """The C of the record flags FLAGS of FN, with LOG_REC_BUFS while a
    request is pending when FN is a blocking call that logs
    its buffers then (log/mpispec.py: buffers_if_pending), and when the
    call failed (RET: drdb check's arg.invalid looks at them); with
    REC_PROBE for any call with buffers (rec.h: a site's first record
    carries them)."""
    if S.site_buffers(fn) and S.buffers_if_pending(fn):
        return (f"({flags}) | REC_PROBE | ((rec_pending_any() || "
                f"{ret} != MPI_SUCCESS) ? LOG_REC_BUFS : 0)")
    if S.site_buffers(fn):
        return f"({flags}) | REC_PROBE"
    return flags


def put_bufs(fn, out, rec, started, flags, ret, ref):
    """Writes the addresses of FN's buffers (log/mpispec.py: site_buffers)
    into REC when STARTED says rec_begin_at wrote a call site (and, for a
    blocking call, its record FLAGS have LOG_REC_BUFS); the
    extent only when its count and datatype mean something: the call (RET)
    succeeded (a failed call's datatype may be no datatype), the buffer is
    not MPI_IN_PLACE, and a rooted collective's buffer is significant here
    (elsewhere its count and type may be anything). A call that starts a
    request counts it as pending (rec_pending_add), a one-sided
    operation its window (rec_rma_opened) until a synchronization ends
    its epoch (rec_rma_closed)."""
    if S.starts_request(fn):
        req = next(a for a in fn.args if a.ctype == "MPI_Request *" and
                   a.direction == "out" and not a.array)
        out.write(f"    if ({ret} == MPI_SUCCESS)\n"
                  f"        rec_pending_add(*{ref(req.name)});\n")
    # A one-sided operation's buffers are in use until its epoch ends: its
    # window counts as pending from it to a fence, MPI_Win_unlock_all or
    # MPI_Win_complete (rec-pending.c).
    if S.rma_op(fn) and not S.starts_request(fn):
        out.write(f"    if ({ret} == MPI_SUCCESS)\n"
                  f"        rec_rma_opened({ref('win')});\n")
    if {"rma-fence", "rma-unlock-all", "rma-complete"} & fn.flags:
        out.write(f"    if ({ret} == MPI_SUCCESS)\n"
                  f"        rec_rma_closed({ref('win')});\n")
    bufs = S.site_buffers(fn)
    if not bufs:
        return
    if S.buffers_if_pending(fn):
        out.write(f"    if ({started} == REC_SITE_BUFS) {{\n")
    else:
        out.write(f"    if ({started} >= REC_SITE_PUT) {{\n")
    for a, n, dtype in bufs:
        if n is None:
            out.write(f"        rec_put_bufaddr({rec}, {ref(a.name)}, -1, "
                      f"MPI_DATATYPE_NULL);\n")
            continue
        cond = f"{ret} == MPI_SUCCESS && {ref(a.name)} != MPI_IN_PLACE"
        if a.at:
            cond += (f" && rec_coll_writes({ref('comm')}, {ref('root')}, "
                     f"REC_AT_{a.at.upper()})")
        cnt = S.count_expr(n, array_peers(fn), ref)
        out.write(f"        rec_put_bufaddr({rec}, {ref(a.name)}, "
                  f"({cond}) ? {cnt} : -1, {ref(dtype)});\n")
    out.write("    }\n")


def gen_timer(fn, out):
    """MPI_Wtime, MPI_Wtick: the value is the output; held back with the
    polls around it (rec_poll_value), so a polling loop that reads the
    clock is still one cycle."""
    out.write(f"double {fn.name}(void)\n{{\n"
              f"    if (rec_busy || !rec_live()) return P{fn.name}();\n"
              f"    uint64_t t0 = rec_now();\n"
              f"    double ret = P{fn.name}();\n"
              f"    rec_poll_value({fn.id}, ret, t0, rec_now());\n"
              f"    return ret;\n}}\n\n")


def call_slot(fn, ref):
    """The C that says what FN waits for while it runs (rec.h:
    rec_call_enter) when FN can block, for `drdb check`'s wait-for graph;
    "" otherwise. REF maps an argument name to its C expression."""
    nb = {"nb", "persistent", "poll"} & fn.flags
    sl = fn.slots
    none = "LOG_CALL_NONE"

    def val(slot):
        return ref(fn.args[sl[slot]].name) if slot in sl else none
    comm = ref(fn.args[sl["comm"]].name) if "comm" in sl else "0"
    if "finalize" in fn.flags:
        # MPICH's MPI_Finalize waits for the other processes: a rank
        # there makes no more calls (a member that skipped a collective)
        return f"rec_call_enter({fn.id}, {none}, {none}, {none}, {none}, 0)"
    if fn.kind == "completion" and "poll" not in fn.flags:
        if "requests" in sl:
            n = ref(fn.args[0].name)
            return (f"rec_call_requests({fn.id}, {n}, "
                    f"{ref(fn.args[sl['requests']].name)})")
        if "request" in sl:
            r = ref(fn.args[sl["request"]].name)
            return f"rec_call_requests({fn.id}, 1, {r})"
        return ""
    if nb or fn.kind not in ("send", "recv", "sendrecv", "probe", "mprobe",
                             "coll", "comm-ctor"):
        return ""
    if fn.kind == "comm-ctor" and {"group", "dynamic"} & fn.flags:
        return ""
    if fn.kind == "sendrecv":
        return (f"rec_call_enter({fn.id}, {val('dest')}, {val('tag')}, "
                f"{val('source')}, {val('recvtag')}, {comm})")
    if fn.kind == "coll":
        # A rooted collective's root, a reduction's op: compared across
        # the members blocked in a collective (coll.blocked-mismatch).
        op = f"(int){val('op')}" if "op" in sl else none
        return (f"rec_call_enter({fn.id}, {val('root')}, {op}, {none}, "
                f"{none}, {comm})")
    peer = val("dest") if fn.kind == "send" else val("source")
    tag = val("tag") if fn.kind in ("send", "recv", "probe", "mprobe") \
        else none
    return f"rec_call_enter({fn.id}, {peer}, {tag}, {none}, {none}, {comm})"


def fly_args(fn):
    """The arguments the call in flight keeps (rec.h: rec_fly), as
    (position, argument, encoding): the by-value ones (their log
    encoding) and the buffers a record's site carries ("BUF"). None for
    MPI_Abort (the abort role: it ends the job by design)."""
    if "abort" in fn.flags:
        return None
    bufs = {a.name for a, _, _ in S.site_buffers(fn)}
    kept = [(i, a, S.value_encoding(a.ctype) if a.direction is None
             else "BUF") for i, a in enumerate(fn.args)
            if a.direction is None or a.name in bufs]
    assert len(fn.args) <= 16, fn.name  # REC_FLY_ARGS
    return kept


def fly_enter(fn, ref, t0, ra):
    """The C that keeps FN's call in flight (rec.h: rec_fly), which began
    at T0 and returns to RA; "" none."""
    kept = fly_args(fn)
    if kept is None:
        return ""
    cast = {"LOG_ENC_INT": "(uint64_t)(int64_t)",
            "LOG_ENC_AINT": "(uint64_t)(int64_t)",
            "LOG_ENC_HANDLE": "(uint32_t)"}
    c = "".join(f"    rec_fly.a[{i}] = {cast.get(enc, '(uintptr_t)')}"
                f"({ref(a.name)});\n" for i, a, enc in kept)
    return (c + f"    rec_fly.t0 = {t0};\n"
            f"    rec_fly.ra = {ra};\n"
            f"    rec_fly.fn = {fn.id};\n")


def gen_fly_died(fns, out):
    """rec_fly_died (rec.h): the record of the call in flight, with its
    by-value arguments and buffer addresses (extents not known), as each
    wrapper writes them."""
    out.write("void rec_fly_died(const struct rec_fly *f, int code)\n{\n"
              "    struct log_rec rec;\n    unsigned flags = LOG_REC_TRUNC "
              "| LOG_REC_DIED;\n    int started;\n"
              "    switch (f->fn) {\n")
    for fn in fns:
        kept = fly_args(fn)
        if kept is None:
            continue
        pos = {a.name: i for i, a, _ in kept}
        bufs = S.site_buffers(fn)
        extra = " | LOG_REC_BUFS" if bufs and S.buffers_if_pending(fn) \
            else ""
        out.write(f"    case {fn.id}:\n"
                  f"        started = rec_begin_at(&rec, {fn.id}, flags"
                  f"{extra}, code, f->t0, rec_now(), {args_room(fn)}, "
                  f"f->ra);\n        if (!started)\n            return;\n")
        if bufs:
            out.write("        if (started >= REC_SITE_PUT) {\n")
            for a, _, _ in bufs:
                out.write(f"            rec_put_bufaddr(&rec, (const void *)"
                          f"(uintptr_t)f->a[{pos[a.name]}], -1, "
                          f"MPI_DATATYPE_NULL);\n")
            out.write("        }\n")
        back = {"LOG_ENC_INT": "(int)(int64_t)", "LOG_ENC_AINT": "(int64_t)",
                "LOG_ENC_HANDLE": "(uint32_t)"}
        put_args(fn, out, "&rec",
                 lambda n: f"{back.get(S.value_encoding(fn.arg(n).ctype), '')}"
                           f"f->a[{pos[n]}]")
        out.write("        break;\n")
    out.write("    default:\n        return;\n    }\n    rec_end(&rec);\n"
              "}\n\n")


def gen_wrapper(fn, out):
    ret = fn.ret
    call_args = ", ".join(a.name for a in fn.args)
    if ret == "double":
        assert not fn.args, fn.name
        gen_timer(fn, out)
        return
    pre, size, put = [], ["0"], []
    if S.is_neighbor_coll(fn):
        # The topology, asked for once: its field (LOG_F_NEIGHBORS), the
        # peers of the buffers and the lengths of the count arrays.
        pre.append("    struct rec_topo rec_topo;\n"
                   "    rec_topo_get(&rec_topo, comm, ret == MPI_SUCCESS);\n")
        size.append("rec_topo_room(&rec_topo)")
    partial = False
    for i, o in enumerate(S.plan(fn)):
        if o is not None and render(fn, i, o, pre, size, put):
            partial = True
    # An output it cannot size makes the record PARTIAL when the call
    # succeeded; after an error its outputs are undefined, nothing to
    # reproduce: the error replays.
    flags = "(ret == MPI_SUCCESS ? LOG_REC_PARTIAL : 0)" if partial else "0"
    st = S.status_arg(fn)
    out.write(f"{ret} {fn.name}({fn.c_params()})\n{{\n")
    out.write(f"    if (rec_busy || !rec_live()) return P{fn.name}({call_args});\n")
    # Freed handles are pinned until logged (rec.h).
    pin = pins(fn, lambda n: n)
    if st:
        # The received size (and the matched source and tag, which causal
        # analysis needs) come from the status: take it even when the
        # program passes MPI_STATUS_IGNORE.
        out.write("    MPI_Status rec_status = {0, 0, MPI_ANY_SOURCE, "
                  "MPI_ANY_TAG, MPI_SUCCESS};\n")
        out.write(f"    if ({st} == MPI_STATUS_IGNORE) {st} = &rec_status;\n")
    for o in S.plan(fn):
        if o is not None and o.kind == "STRING" and o.entry:
            out.write(f"    int cap_{o.arg.name} = {o.entry} ? *{o.entry} "
                      f": 0;\n")
    if pin:
        out.write(f"    if (__builtin_expect(rec_mt, 0))\n        {pin};\n")
    freed, hsize = freed_arg(fn)
    if hsize == 4:
        out.write(f"    uint32_t rec_freed = {freed} ? (uint32_t)*{freed} "
                  f": 0;\n")
        size.append("LOG_HANDLE_ROOM")
        put.append("    if (ret == MPI_SUCCESS && rec_freed)\n"
                   "        log_put_handle(&rec, LOG_ARG_NONE, LOG_F_REQUEST, "
                   "0, rec_freed);\n")
    elif hsize == 8:
        # An MPI_File is a pointer, no 32-bit handle: its value before the
        # call as an ARRAY field of one element (docs/log-format.md).
        out.write(f"    uint64_t rec_freed_fh = {freed} ? "
                  f"(uint64_t)(uintptr_t)*{freed} : 0;\n")
        size.append("rec_array_room(1, LOG_ENC_PTR)")
        put.append("    if (ret == MPI_SUCCESS && rec_freed_fh)\n"
                   "        rec_put_array(&rec, 0, &rec_freed_fh, 1, "
                   "LOG_ENC_PTR);\n")
    for i, a, where in S.count_arrays(fn):
        # Its length once (rec_peers asks MPI), 0 when not significant.
        n, enc = f"n_{a.name}", array_enc(a)
        pre.append(f"    int64_t {n} = ret == MPI_SUCCESS && "
                   f"{array_cond(where, str)} ? "
                   f"{S.count_expr(a.length, array_peers(fn))} : 0;\n")
        size.append(f"rec_array_room({n}, {enc})")
        put.append(f"    rec_put_array(&rec, {i}, {a.name}, {n}, {enc});\n")
    if S.is_neighbor_coll(fn):
        put.append("    rec_put_topo(&rec, comm, &rec_topo);\n")
    out.write("    uint64_t t0 = rec_now();\n")
    slot = call_slot(fn, lambda n: n)
    if slot:
        out.write(f"    {slot};\n")
    fly = fly_enter(fn, lambda n: n, "t0", "__builtin_return_address(0)")
    out.write(fly)
    out.write("    rec_busy = 1;\n")
    out.write(f"    {ret} ret = P{fn.name}({call_args});\n")
    out.write("    rec_busy = 0;\n")
    if fly:
        out.write("    rec_fly.fn = 0;\n")
    if slot:
        out.write("    rec_call_leave();\n")
    out.write("    uint64_t t1 = rec_now();\n")
    out.write("".join(pre))
    out.write("    struct log_rec rec;\n")
    ret_int = "ret" if ret == "int" else "MPI_SUCCESS"
    room = f"{args_room(fn)} + {' + '.join(size)}"
    # A new handle: its record waits until another thread's freeing of
    # the same handle is logged (rec.h).
    news = new_handles(fn)
    if news:
        out.write("    rec_lock();\n    if (__builtin_expect(rec_mt, 0) && "
                  "ret == MPI_SUCCESS) {\n")
        for x in news:
            out.write(f"        if ({x}) rec_wait_unpinned(*{x});\n")
        out.write("    }\n")
    unlock = ("rec_unlock();\n        " if news else "") + \
        ("rec_unpin_handles();\n        " if pin else "")
    poll = "poll" in fn.flags
    if poll:
        # Found nothing: built aside and held back (rec_poll), with no
        # call site.
        out.write("    uint8_t rec_img[512];\n"
                  f"    int rec_polled = ret == MPI_SUCCESS && !*flag && "
                  f"({room}) <= sizeof rec_img;\n"
                  "    if (rec_polled)\n"
                  "        rec.start = rec.p = rec_img;\n    else {\n    ")
    else:
        out.write("    {\n    ")
    bufs = S.site_buffers(fn)
    assert not (poll and bufs), fn.name
    out.write(f"unsigned rec_flags = {pending_flag(fn, flags, 'ret')};\n"
              f"    int rec_started = rec_begin_at(&rec, {fn.id}, rec_flags, "
              f"{ret_int}, t0, t1, {room}, __builtin_return_address(0));\n"
              f"    if (!rec_started) {{\n        {unlock}return ret;\n"
              f"    }}\n")
    put_bufs(fn, out, "&rec", "rec_started", "rec_flags", "ret",
             lambda n: n)
    out.write("    }\n")
    put_args(fn, out, "&rec", lambda n: n)
    out.write("".join(put))
    if poll:
        out.write(f"    if (rec_polled)\n        rec_poll({fn.id}, rec_img, "
                  "(size_t)(rec.p - rec_img), t0, t1);\n    else\n    ")
    out.write("    rec_end(&rec);\n")
    if news:
        out.write("    rec_unlock();\n")
    if pin:
        out.write("    rec_unpin_handles();\n")
    out.write("    return ret;\n}\n\n")


def gen_alias(fn, out):
    """PMPI_NAME, the same function as the wrapper MPI_NAME (the program's
    calls through the mpi_f08 bindings). Parenthesized: PMPI_NAME(...) is
    the macro calling MPICH's."""
    out.write(f"{fn.ret} (P{fn.name})({fn.c_params()}) "
              f"__attribute__((alias(\"{fn.name}\")));\n\n")


def gen_real(fns, out, real):
    """The table of MPICH's PMPI_ functions (OUT_REAL) and its loader."""
    real.write("/* MPICH's PMPI_ functions the recorder wraps: its own calls "
               "of PMPI_NAME(...)\n * go through rec_real_NAME (see "
               "gen-recorder.py); included by rec.h. */\n"
               "#ifndef DRDB_REC_REAL_H\n#define DRDB_REC_REAL_H\n\n")
    for fn in fns:
        real.write(f"extern {fn.ret} (*rec_real_{fn.name})"
                   f"({fn.c_params() or 'void'}) "
                   f"__attribute__((visibility(\"hidden\")));\n"
                   f"#define P{fn.name}(...) "
                   f"rec_real_{fn.name}(__VA_ARGS__)\n")
    real.write("\n#endif\n")
    out.write("#include <dlfcn.h>\n\n")
    for fn in fns:
        out.write(f"{fn.ret} (*rec_real_{fn.name})"
                  f"({fn.c_params() or 'void'});\n")
    # Before any program code: the dynamic linker runs the constructors
    # of a preloaded library before the program's. The next definition
    # after the recorder: the MPI library the program itself binds to
    # (not whatever libmpich.so.12 LD_LIBRARY_PATH names first: the
    # program's RPATH may choose another). When there is none (linked
    # into the program with -ldrdb-record and --as-needed, the recorder,
    # which names no MPICH symbol, does not load MPICH), MPICH's library,
    # opened here.
    out.write("\n__attribute__((constructor)) static void "
              "rec__real_load(void)\n{\n"
              "    void *from = RTLD_NEXT;\n"
              "    if (!dlsym(RTLD_NEXT, \"PMPI_Init\")) {\n"
              "        void *mpich = dlopen(\"libmpich.so.12\", "
              "RTLD_LAZY | RTLD_GLOBAL);\n"
              "        if (mpich)\n            from = mpich;\n    }\n")
    for fn in fns:
        out.write(f"    *(void **)&rec_real_{fn.name} = "
                  f"dlsym(from, \"P{fn.name}\");\n")
    out.write("}\n\n")


def gen_skeleton(fn, out, hdr):
    """The wrapper of a function with a recorder hook, and its helpers."""
    call_args = ", ".join(a.name for a in fn.args)
    out.write(f"int {fn.name}({fn.c_params()})\n{{\n")
    # The life cycle opens and closes the log: its hooks always run (but
    # for MPI's own calls).
    cond = "rec_busy" if fn.kind == "lifecycle" else "rec_busy || !rec_live()"
    out.write(f"    if ({cond})\n        return P{fn.name}({call_args});\n")
    out.write(f"    struct args_{fn.name} a = {{{call_args or '0'}}};\n")
    out.write(f"    struct rec_call c = {{LOG_FN_{fn.name}, MPI_SUCCESS, 0, 0, "
              f"__builtin_return_address(0)}};\n")
    # The hook runs under the recorder's lock (rec.h; MULTIPLE only),
    # which rec_pmpi_NAME drops for the PMPI call.
    unpin = "    rec_unpin_handles();\n" if pins(fn, lambda n: n) else ""
    out.write(f"    rec_lock();\n    rec_{fn.name}(&c, &a);\n{unpin}"
              f"    rec_unlock();\n    return c.ret;\n}}\n\n")

    a_args = ", ".join(f"a->{a.name}" for a in fn.args)
    pin = pins(fn, lambda n: f"a->{n}")
    pin_c = (f"    if (__builtin_expect(rec_mt, 0))\n        {pin};\n"
             if pin else "")
    wait_c = "".join(
        f"    if (__builtin_expect(rec_mt, 0) && c->ret == MPI_SUCCESS && "
        f"a->{x})\n        rec_wait_unpinned(*a->{x});\n"
        for x in new_handles(fn))
    hdr.write(f"void rec_{fn.name}(struct rec_call *c, "
              f"struct args_{fn.name} *a);\n")
    slot = call_slot(fn, lambda n: f"a->{n}")
    fly = fly_enter(fn, lambda n: f"a->{n}", "c->t0", "c->caller")
    enter_c = (f"    {slot};\n" if slot else "") + fly
    leave_c = ("    rec_call_leave();\n" if slot else "") + \
        ("    rec_fly.fn = 0;\n" if fly else "")
    hdr.write(f"static inline void rec_pmpi_{fn.name}(struct rec_call *c, "
              f"struct args_{fn.name} *a)\n{{\n"
              f"    (void)a;\n{pin_c}"
              f"    int held = rec_lock_drop();\n"
              f"    c->t0 = rec_now();\n{enter_c}"
              f"    rec_busy = 1;\n"
              f"    c->ret = P{fn.name}({a_args});\n"
              f"    rec_busy = 0;\n{leave_c}"
              f"    c->t1 = rec_now();\n"
              f"    rec_lock_retake(held);\n{wait_c}}}\n")
    hdr.write(f"static inline void rec_put_args_{fn.name}(struct log_rec "
              f"*rec, const struct args_{fn.name} *a)\n{{\n"
              f"    (void)rec;\n    (void)a;\n")
    put_args(fn, hdr, "rec", lambda n: f"a->{n}")
    hdr.write("}\n")
    apeers = array_peers(fn)
    arrays_room = "".join(
        f" + rec_array_room({S.count_expr(a.length, apeers, lambda n: 'a->' + n)}"
        f", {array_enc(a)})" for _, a, _ in S.count_arrays(fn))
    hdr.write(f"static inline int rec_frame_{fn.name}(const struct rec_call "
              f"*c, const struct args_{fn.name} *a, struct log_rec *rec, "
              f"unsigned flags, size_t room)\n{{\n")
    if S.is_neighbor_coll(fn):
        hdr.write("    struct rec_topo rec_topo;\n"
                  "    rec_topo_get(&rec_topo, a->comm, "
                  "c->ret == MPI_SUCCESS);\n")
        arrays_room += " + rec_topo_room(&rec_topo)"
    if pending_flag(fn, "flags", "c->ret") != "flags":
        hdr.write(f"    flags = {pending_flag(fn, 'flags', 'c->ret')};\n")
    hdr.write(f"    int started = rec_begin_at(rec, c->fn, flags, c->ret, "
              f"c->t0, c->t1, {args_room(fn)} + room{arrays_room}, "
              f"c->caller);\n"
              f"    if (!started)\n        return 0;\n")
    put_bufs(fn, hdr, "rec", "started", "flags", "c->ret",
             lambda n: f"a->{n}")
    hdr.write(f"    rec_put_args_{fn.name}(rec, a);\n")
    for i, a, where in S.count_arrays(fn):
        ref = lambda n: f"a->{n}"  # noqa: E731
        cnt = S.count_expr(a.length, apeers, ref)
        hdr.write(f"    if (c->ret == MPI_SUCCESS && "
                  f"{array_cond(where, ref)})\n"
                  f"        rec_put_array(rec, {i}, a->{a.name}, {cnt}, "
                  f"{array_enc(a)});\n")
    if S.is_neighbor_coll(fn):
        hdr.write("    rec_put_topo(rec, a->comm, &rec_topo);\n")
    hdr.write("    return 1;\n}\n\n")


def main(argv):
    if len(argv) != 5:
        raise SystemExit(__doc__)
    spec = S.parse_spec(argv[1])
    banner = ("/* Generated by recorder/gen-recorder.py from "
              "log/mpi-functions.spec. Do not edit. */\n")
    with open(argv[2], "w") as out, open(argv[3], "w") as hdr, \
            open(argv[4], "w") as real:
        real.write(banner)
        hdr.write(banner)
        hdr.write("/* The recorder's hooks (the spec's manual and manual(rec) "
                  "functions) and their\n * helpers; included by rec.h. */\n")
        hdr.write("#ifndef DRDB_REC_HOOKS_H\n#define DRDB_REC_HOOKS_H\n\n")
        out.write(banner)
        out.write('#include "rec.h"\n\n')
        out.write("#pragma GCC diagnostic ignored \"-Wunused-variable\"\n")
        out.write("#pragma GCC diagnostic ignored \"-Wmissing-prototypes\"\n\n")
        logged = [fn for fn in spec.funcs if fn.logged]
        gen_real(logged, out, real)
        for fn in logged:
            if fn.rec_hook:
                gen_skeleton(fn, out, hdr)
                hdr.write(S.twins_define(fn, "REC"))
            else:
                gen_wrapper(fn, out)
            gen_alias(fn, out)
        gen_fly_died(logged, out)
        hdr.write("#endif\n")


if __name__ == "__main__":
    main(sys.argv)
