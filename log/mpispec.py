"""The front end of drdb's generators: reads log/mpi-functions.spec.

Every generator (log/gen-functable.py: the table, the roles, the prototypes
and the argument structs; recorder/gen-recorder.py: the PMPI wrappers;
replayer/gen-replayer.py: the replay stub) loads this module and asks it
what each function is and what each argument carries. The two back ends
only render that answer (an Out per argument, below) in their own calls, so
what the recorder writes and what the stub reads back are decided here,
once.

The spec's grammar is documented at the top of the spec. Any error names
the spec line and stops the build. Standard library only (build-time tool).
"""
import re

DIRS = ("in", "out", "inout", "async")
CLASSES = ("auto", "manual", "manual(rec)", "manual(rpl)")

# Role kinds: what a call is. Exactly one per function. Documented in the
# spec's header; the C enum log_kind is generated from this list.
KINDS = ("local", "lifecycle", "send", "recv", "sendrecv", "probe", "mprobe",
         "mrecv", "start", "startall", "completion", "request-free", "cancel",
         "coll", "comm-ctor", "type-ctor", "rma", "file", "partitioned")
# Role flags, any number. The C flags LOG_R_* are generated from this list
# (append only: a flag's bit is its position).
FLAGS = ("nb", "persistent", "neighbor", "group", "dynamic", "poll", "free",
         "sync", "buffered", "ready", "all", "mpi-owned", "abort", "finalize",
         "examines", "errhandler", "rma-fence", "rma-lock", "rma-unlock",
         "rma-lock-all", "rma-unlock-all", "rma-start", "rma-complete",
         "rma-post", "rma-wait", "commit", "rma-flush")
# The one-sided synchronizations (MPI 4.0 12.5), at most one, on 'rma'
# calls with a window: drdb check's rma.* follow the epochs by them.
RMA_SYNCS = ("rma-fence", "rma-lock", "rma-unlock", "rma-lock-all",
             "rma-unlock-all", "rma-start", "rma-complete", "rma-post",
             "rma-wait", "rma-flush")
# The send modes (MPI 4.0 3.4): a send with none of them is a standard one.
SEND_MODES = ("sync", "buffered", "ready")
# Kinds a call of which starts a request (nb, persistent).
STARTS = ("send", "recv", "sendrecv", "mrecv", "coll", "comm-ctor",
          "partitioned")
P2P = ("send", "recv", "sendrecv")

# Named argument slots: the role table says which argument of a function
# plays each part (docs/function-table.md). A slot is found by the first
# argument name of its list (by-value slots), by a C type and direction
# (pointer slots) or by a role (ROLE_SLOTS).
VALUE_SLOTS = (
    ("count", ("count", "sendcount")),
    ("datatype", ("datatype", "sendtype")),
    ("dest", ("dest",)),
    ("tag", ("tag", "sendtag")),
    ("recvcount", ("recvcount", "count", "sendcount")),
    ("recvtype", ("recvtype", "datatype")),
    ("source", ("source",)),
    ("recvtag", ("recvtag", "tag", "sendtag")),
    ("root", ("root",)),
    ("op", ("op",)),
    ("comm", ("comm", "comm_old", "local_comm", "intercomm")),
    ("oldtype", ("oldtype",)),
    ("errorcode", ("errorcode",)),
)
POINTER_SLOTS = (
    ("request", (("MPI_Request *", "out"), ("MPI_Request *", "inout"))),
    ("requests", (("MPI_Request[]", "inout"), ("MPI_Request[]", "in"))),
    ("status", (("MPI_Status *", "out"),)),
    ("newcomm", (("MPI_Comm *", "out"),)),
    ("newtype", (("MPI_Datatype *", "out"),)),
)
# Slots a role gives: a 'free' call's one inout handle argument, the object
# it frees (find_slots).
ROLE_SLOTS = ("freed",)
SLOTS = tuple(s for s, _ in VALUE_SLOTS) + \
    tuple(s for s, _ in POINTER_SLOTS) + ROLE_SLOTS

KEYWORD_LENGTHS = ("string", "string[]", "ptr", "opaque", "callback", "?")
# Where a rooted collective's buffer is significant (the `at` qualifier).
AT_SIDES = ("root", "nonroot", "all")
PEER_TERMS = ("size", "lsize", "indegree", "outdegree")

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
    r"^(?:\d+|\*?[A-Za-z_]\w*(?:\+1)?|(?:l?size|indegree|outdegree|cartdim)"
    r"\(\w+\))$")
LEN_VEC = re.compile(r"^(\w+)\[\] x (\w+) @ (\w+)$")
# string(*ARG): an output string MPI writes into a buffer of *ARG bytes,
# the value ARG holds when the call starts (an inout length that the call
# replaces with the whole value's length: MPI_Info_get_string).
# split(FH): the end of a split collective on file handle FH writes the
# buffer its _begin call gave (MPI_File_read_all_end, ...).
LEN_SPLIT = re.compile(r"^split\((\w+)\)$")
LEN_STR_ENTRY = re.compile(r"^string\(\*(\w+)\)$")
LEN_BUF = re.compile(r"^(\S+(?: \* \S+)*) x (\w+)$")
PEER_TERM = re.compile(r"^(l?size|indegree|outdegree|cartdim)\((\w+)\)$")


class SpecError(Exception):
    pass


class Arg:
    def __init__(self, direction, ctype, name, array, length, at, logged):
        self.direction = direction  # None for by-value arguments
        self.ctype = ctype          # C type without the name, arrays as []
        self.name = name
        self.array = array          # "[]", "[][3]" or ""
        self.length = length        # LENGTH annotation or None
        self.at = at                # `at` qualifier: root, nonroot, all
        self.logged = logged        # "logged" or "noted" (an input logged;
                                    # the replay checks a "logged" one)
        self.index = -1             # position in the argument list
        self.vpos = -1              # position among by-value arguments

    def c_decl(self):
        sep = "" if self.ctype.endswith("*") else " "
        return f"{self.ctype}{sep}{self.name}{self.array}"

    def c_field(self):
        """The argument as a member of an argument struct: arrays decay."""
        if not self.array:
            return self.c_decl()
        inner = self.array[2:]  # "[][3]" -> "[3]"
        return f"{self.ctype} (*{self.name}){inner}"

    def annotation(self):
        """The braces' text as the spec writes it."""
        quals = []
        if self.at:
            quals.append("at " + self.at)
        if self.logged:
            quals.append(self.logged)
        return "; ".join([self.length] + quals) if self.length else None


class Func:
    def __init__(self, fid, cls, kind, flags, unsupported, ret, name, args,
                 variadic, lineno):
        self.id = fid
        self.cls = cls
        self.kind = kind
        self.flags = flags          # a subset of FLAGS
        self.unsupported = unsupported  # the reason's key, or None
        self.ret = ret
        self.name = name
        self.args = args
        self.variadic = variadic
        self.lineno = lineno
        self.slots = {}
        # MPI 4's large-count functions: NAME_c is the twin of NAME, the
        # same call with MPI_Count counts (parse_spec). classic: NAME's
        # Func, on both; twin: NAME_c's, on NAME.
        self.classic = self
        self.twin = None

    @property
    def rec_hook(self):
        return self.cls in ("manual", "manual(rec)")

    @property
    def rpl_hook(self):
        return self.cls in ("manual", "manual(rpl)")

    @property
    def logged(self):
        """Whether the recorder logs the call: calls that return an error
        code or a double (MPI_Wtime). Handle conversions and address
        arithmetic return a value and touch no MPI state; MPI_Pcontrol's
        extra arguments cannot be forwarded."""
        return self.ret in ("int", "double") and not self.variadic

    def role_text(self):
        parts = [self.kind] + [f for f in FLAGS if f in self.flags]
        if self.unsupported:
            parts.append(f"unsupported({self.unsupported})")
        return ",".join(parts)

    def c_params(self):
        parts = [a.c_decl() for a in self.args]
        if self.variadic:
            parts.append("...")
        return ", ".join(parts) if parts else "void"

    def value_args(self):
        return [a for a in self.args if a.direction is None]

    def arg(self, name):
        return next((a for a in self.args if a.name == name), None)


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


def check_length(length, names):
    """Raises SpecError unless LENGTH is well formed and names real args."""
    def term(t):
        if not LEN_TERM.match(t):
            raise SpecError(f"bad length term '{t}'")
        ident = re.sub(r"^\*|\+1$", "", t)
        m = PEER_TERM.match(t)
        if m:
            ident = m.group(2)
        if ident.isdigit() or ident.startswith("MPI_MAX_"):
            return
        if ident not in names:
            raise SpecError(f"length '{length}' names no argument '{ident}'")

    if length in KEYWORD_LENGTHS:
        return
    m = LEN_STR_ENTRY.match(length) or LEN_SPLIT.match(length)
    if m:
        if m.group(1) not in names:
            raise SpecError(f"length '{length}' names no argument "
                            f"'{m.group(1)}'")
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
    direction, decl, braces = m.group(1), m.group(2), m.group(3)
    m = re.match(r"^(.*?)(\w+)((?:\[\w*\])*)$", decl)
    if not m or not m.group(1).strip():
        raise SpecError(f"cannot parse argument '{text}'")
    ctype, name, array = m.group(1).strip(), m.group(2), m.group(3)
    length, at, logged = None, None, False
    if braces is not None:
        parts = [p.strip() for p in braces.split(";")]
        length = parts[0]
        for q in parts[1:]:
            if q.startswith("at "):
                at = q[3:].strip()
                if at not in AT_SIDES:
                    raise SpecError(f"argument '{name}': 'at {at}' is not "
                                    f"one of {', '.join(AT_SIDES)}")
            elif q in ("logged", "noted"):
                logged = q
            else:
                raise SpecError(f"argument '{name}': unknown qualifier "
                                f"'{q}' (at SIDE, logged, noted)")
    pointer = "*" in ctype or array
    if pointer and direction is None:
        raise SpecError(f"pointer argument '{name}' needs a direction "
                        f"({'/'.join(DIRS)})")
    if not pointer and direction is not None:
        raise SpecError(f"by-value argument '{name}' takes no direction")
    if not pointer and braces is not None:
        raise SpecError(f"by-value argument '{name}' takes no length")
    if not pointer and ctype not in VALUE_SIZES:
        raise SpecError(f"by-value type '{ctype}' has no size: add it to "
                        "VALUE_SIZES in log/mpispec.py")
    if logged and (direction != "in" or not array):
        raise SpecError(f"argument '{name}': only an input array can be "
                        f"'{logged}'")
    return Arg(direction, ctype, name, array, length, at, logged)


def parse_roles(text, reasons):
    kind, flags, unsupported = None, set(), None
    for tok in text.split(","):
        m = re.match(r"^unsupported\((\w+)\)$", tok)
        if m:
            if m.group(1) not in reasons:
                raise SpecError(f"unsupported({m.group(1)}): no "
                                f"'%unsupported {m.group(1)} \"...\"' line")
            unsupported = m.group(1)
        elif tok in KINDS:
            if kind:
                raise SpecError(f"two role kinds: '{kind}' and '{tok}'")
            kind = tok
        elif tok in FLAGS:
            flags.add(tok)
        else:
            raise SpecError(f"unknown role '{tok}': kinds are "
                            f"{', '.join(KINDS)}; flags {', '.join(FLAGS)}, "
                            "unsupported(KEY)")
    if not kind:
        raise SpecError(f"roles '{text}' name no kind ({', '.join(KINDS)})")
    return kind, flags, unsupported


def find_slots(fn):
    slots = {}
    for slot, names in VALUE_SLOTS:
        for n in names:
            a = fn.arg(n)
            if a is not None and a.direction is None:
                slots[slot] = a.index
                break
    for slot, forms in POINTER_SLOTS:
        for ctype, direction in forms:
            a = next((a for a in fn.args
                      if a.direction == direction and
                      (a.ctype + a.array).replace("const ", "") == ctype),
                     None)
            if a is not None:
                slots[slot] = a.index
                break
    freed = [a for a in fn.args if a.direction == "inout" and not a.array]
    if "free" in fn.flags and len(freed) == 1:
        slots["freed"] = freed[0].index
    return slots


def handle_size(arg):
    """The size of the handle pointer argument ARG points to: 4 (MPI_Comm,
    MPI_Datatype, ...), 8 (an MPI_File: a pointer in MPICH), 0 when it
    points to no handle (an int, a buffer)."""
    t = arg.ctype.replace("const ", "").strip()
    if arg.array or not t.endswith("*"):
        return 0
    t = t[:-1].strip()
    if t not in VALUE_SIZES or value_encoding(t) not in ("LOG_ENC_HANDLE",
                                                          "LOG_ENC_PTR"):
        return 0
    return VALUE_SIZES[t]


# An error handler's function: MPI calls it with a pointer to the object
# (MPI_<object>_errhandler_function, MPI 4.0 9.3).
ERRHANDLER_FN = re.compile(r"^(MPI_\w+)_errhandler_function \*$")


def errhandler_object(fn):
    """The C type of the object an error handler FN makes is called with
    ("MPI_File" for MPI_File_create_errhandler), from its callback's type;
    None when FN takes no error handler function."""
    for a in fn.args:
        m = ERRHANDLER_FN.match(a.ctype.replace("const ", ""))
        if a.length == "callback" and m and m.group(1) in VALUE_SIZES:
            return m.group(1)
    return None


def errhandler_encoding(fn):
    """enum log_enc of the object handle FN's error handler is called with:
    LOG_ENC_HANDLE (an int handle), LOG_ENC_PTR (an MPI_File, a pointer in
    MPICH); "0" when FN makes no error handler."""
    obj = errhandler_object(fn) if "errhandler" in fn.flags else None
    return value_encoding(obj) if obj else "0"


def is_data(arg):
    """A message buffer: COUNT x TYPE, plain or per peer."""
    return bool(arg.length and (LEN_BUF.match(arg.length) or
                                LEN_VEC.match(arg.length)))


def check_func(fn):
    """The rules that tie roles, slots and length rules together."""
    s = fn.slots
    if ({"nb", "persistent"} & fn.flags) and fn.kind not in STARTS:
        raise SpecError(f"a '{fn.kind}' call starts no request: "
                        "'nb' and 'persistent' do not apply")
    if ({"nb", "persistent"} & fn.flags) and "request" not in s:
        raise SpecError("'nb' and 'persistent' need an out MPI_Request "
                        "argument")
    if "neighbor" in fn.flags and fn.kind != "coll":
        raise SpecError("'neighbor' is for collectives")
    if ({"group", "dynamic"} & fn.flags) and fn.kind != "comm-ctor":
        raise SpecError("'group' and 'dynamic' are for 'comm-ctor'")
    if "poll" in fn.flags and fn.cls == "auto" and not any(
            a.name == "flag" and a.direction == "out" and
            a.ctype.replace(" ", "") == "int*"
            for a in fn.args):
        raise SpecError("an auto 'poll' needs an 'out int *flag' argument")
    if "free" in fn.flags and ("freed" not in s or
                               not handle_size(fn.args[s["freed"]])):
        raise SpecError("a 'free' call has one inout handle argument (the "
                        "object it frees)")
    modes = [m for m in SEND_MODES if m in fn.flags]
    if modes and fn.kind != "send":
        raise SpecError(f"'{modes[0]}' is a send mode: for 'send' calls")
    if len(modes) > 1:
        raise SpecError(f"two send modes: '{modes[0]}' and '{modes[1]}'")
    if "all" in fn.flags and (fn.kind != "completion" or
                              "requests" not in s):
        raise SpecError("'all' is for completions of a request array")
    syncs = [f for f in RMA_SYNCS if f in fn.flags]
    if syncs and (fn.kind != "rma" or len(syncs) > 1 or
                  not any(a.name == "win" and a.direction is None
                          for a in fn.args)):
        raise SpecError(f"'{syncs[0]}' is one synchronization of an 'rma' "
                        "call on a window given by value")
    if "commit" in fn.flags and not any(
            a.direction == "inout" and a.ctype == "MPI_Datatype *"
            for a in fn.args):
        raise SpecError("'commit' is for a call on an inout datatype")
    if "mpi-owned" in fn.flags and not any(
            a.direction == "out" and handle_size(a) for a in fn.args):
        raise SpecError("'mpi-owned' is for calls that return a handle")
    ends = [f for f in ("abort", "finalize") if f in fn.flags]
    if ends and fn.kind != "lifecycle":
        raise SpecError(f"'{ends[0]}' is for 'lifecycle' calls")
    if len(ends) > 1:
        raise SpecError("'abort' and 'finalize' are two calls")
    if "abort" in fn.flags and not ({"comm", "errorcode"} <= set(s)):
        raise SpecError("an 'abort' call has a comm and an errorcode "
                        "argument")
    if "examines" in fn.flags and "errorcode" not in s:
        raise SpecError("'examines' needs the errorcode argument it "
                        "examines")
    if ("errhandler" in fn.flags) != (errhandler_object(fn) is not None):
        raise SpecError("an 'errhandler' call, and only it, takes an "
                        "MPI_<object>_errhandler_function callback")
    if fn.kind == "comm-ctor" and "newcomm" not in s:
        raise SpecError("a 'comm-ctor' has an out MPI_Comm argument")
    if fn.kind == "type-ctor" and "newtype" not in s:
        raise SpecError("a 'type-ctor' has an out MPI_Datatype argument")
    if fn.kind == "comm-ctor" and "nb" in fn.flags and \
            {"group", "dynamic"} & fn.flags:
        raise SpecError("a nonblocking 'comm-ctor' duplicates its "
                        "communicator: not 'group' or 'dynamic'")
    if fn.kind in ("coll", "comm-ctor") and "comm" not in s and \
            not ({"group", "dynamic"} & fn.flags):
        raise SpecError(f"a '{fn.kind}' needs its communicator argument")
    if fn.kind in P2P + ("probe", "mprobe") and \
            not ({"comm", "tag"} <= set(s)):
        raise SpecError(f"a '{fn.kind}' needs comm and tag arguments")
    if fn.kind == "completion" and not ({"request", "requests"} & set(s)):
        raise SpecError("a 'completion' needs its request argument(s)")
    neighbor = "neighbor" in fn.flags
    rooted = fn.kind == "coll" and "root" in s
    for a in fn.args:
        terms = re.findall(r"\b(size|indegree|outdegree)\(", a.length or "")
        if neighbor and "size" in terms:
            raise SpecError(f"argument '{a.name}': a neighbourhood "
                            "collective's peers are indegree(comm) or "
                            "outdegree(comm), not size(comm)")
        if not neighbor and ({"indegree", "outdegree"} & set(terms)):
            raise SpecError(f"argument '{a.name}': indegree/outdegree are "
                            "for neighbourhood collectives")
        if rooted and is_data(a) and not a.at:
            raise SpecError(f"argument '{a.name}': a rooted collective's "
                            "buffer needs '; at root|nonroot|all'")
        if a.at and not (rooted and is_data(a)):
            raise SpecError(f"argument '{a.name}': 'at' is for the buffers "
                            "of a rooted collective")


def parse_line(line, lineno, reasons):
    m = re.match(r"^(\d+)\s+(\w+(?:\(\w+\))?)\s+(\S+)\s+(.+?)\s+"
                 r"((?:P?MPIX?)_\w+)\((.*)\)\s*$", line)
    if not m:
        raise SpecError("expected 'ID CLASS ROLES RET NAME(ARGS)'")
    fid, cls, roles, ret, name, argtext = m.groups()
    if cls not in CLASSES:
        raise SpecError(f"class '{cls}' is not one of {', '.join(CLASSES)}")
    if name.startswith("PMPI_"):
        raise SpecError("list the MPI_ name; the PMPI_ twin is implied")
    kind, flags, unsupported = parse_roles(roles, reasons)
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
    vpos = 0
    for i, a in enumerate(args):
        a.index = i
        if a.direction is None:
            a.vpos = vpos
            vpos += 1
        if a.length is not None:
            try:
                check_length(a.length, names)
            except SpecError as e:
                raise SpecError(f"argument '{a.name}': {e}")
    fn = Func(int(fid), cls, kind, flags, unsupported, ret, name, args,
              variadic, lineno)
    fn.slots = find_slots(fn)
    check_func(fn)
    if fn.rec_hook and fn.ret != "int":
        raise SpecError("a recorder hook is for calls that return an error "
                        "code")
    return fn


class Spec:
    def __init__(self, funcs, reasons):
        self.funcs = funcs
        self.reasons = reasons  # key -> why the replay cannot do it


def parse_spec(path):
    funcs, errors, reasons = [], [], {}
    with open(path) as f:
        lines = list(enumerate(f, 1))
    # Directives first: a function may name a reason given further down.
    for lineno, raw in lines:
        if not raw.startswith("%"):
            continue
        m = re.match(r'^%unsupported\s+(\w+)\s+"([^"\\]*)"\s*$', raw.strip())
        if not m:
            errors.append(f"{path}:{lineno}: expected "
                          "'%unsupported KEY \"reason\"'")
        elif m.group(1) in reasons:
            errors.append(f"{path}:{lineno}: reason '{m.group(1)}' "
                          "given twice")
        else:
            reasons[m.group(1)] = m.group(2)
    for lineno, raw in lines:
        if raw.startswith("%"):
            continue
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            funcs.append(parse_line(line, lineno, reasons))
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
    by_name = {fn.name: fn for fn in funcs}
    for fn in funcs:
        classic = by_name.get(fn.name[:-2]) if fn.name.endswith("_c") \
            else None
        if classic is not None:
            fn.classic = classic
            classic.twin = fn
    used = {fn.unsupported for fn in funcs}
    for key in reasons:
        if key not in used:
            errors.append(f"{path}: reason '{key}' is used by no function")
    if errors:
        raise SystemExit("\n".join(errors))
    return Spec(funcs, reasons)


def hook_twin(fn):
    """The large-count twin that shares FN's hooks: FN_c when the two have
    the same class (hooks on the same sides), else None. A C function takes
    one argument struct, and the twins' differ in the width of their
    counts (int or MPI_Count, arrays of them): one C function could serve
    both only through a copy of the arguments and a dispatch on the
    function at every call. Instead one hook is written once, as a body
    over its function's NAME (the fields have the same names; counts read
    as int64_t, arrays with their element size), and the back ends'
    REC_TWINS_FN / RPL_TWINS_FN instantiate it for both."""
    t = fn.twin
    return t if t is not None and fn.cls != "auto" and t.cls == fn.cls \
        else None


def twins_define(fn, side):
    """The C macro SIDE_TWINS_FN(M, ...), which expands M(FN, ...) M(FN_c,
    ...), when FN_c shares FN's hooks (hook_twin); "" otherwise. SIDE: REC
    (the recorder's hooks) or RPL (the stub's)."""
    t = hook_twin(fn)
    if t is None:
        return ""
    return (f"#define {side}_TWINS_{fn.name}(M, ...) "
            f"M({fn.name}, ##__VA_ARGS__) M({t.name}, ##__VA_ARGS__)\n")


def elem_type(arg):
    """C type of one element a pointer or array argument addresses."""
    t = arg.ctype.replace("const ", "").strip()
    if arg.array:
        return t
    assert t.endswith("*")
    return t[:-1].strip()


def count_expr(term, peers, ref=lambda name: name):
    """C expression (int64_t) for a LENGTH term: a product of terms. A peer
    term (size, lsize, indegree, outdegree of a communicator) becomes
    PEERS(kind, comm), the back end's own C expression; an argument NAME
    becomes REF(NAME) (a hook's code reads its argument struct)."""
    def ident(t):
        return t if t.isdigit() or t.startswith("MPI_MAX_") else ref(t)
    parts = []
    for t in term.split(" * "):
        m = PEER_TERM.match(t)
        if m:
            parts.append(f"(int64_t){peers(m.group(1), ref(m.group(2)))}")
        elif t.startswith("*"):
            parts.append(f"(int64_t)(*{ref(t[1:])})")
        elif t.endswith("+1"):
            parts.append(f"((int64_t){ident(t[:-2])} + 1)")
        else:
            parts.append(f"(int64_t)({ident(t)})")
    return " * ".join(parts)


def has_peer_term(term):
    return bool(re.search(r"\b(l?size|indegree|outdegree)\(", term))


# ---- what each argument carries: the plan both back ends render ----------

class Out:
    """What the record holds for one argument, and how:

    kind    LOGGED_IN  an input array the recorder logs (RAW): N elements
                       of ETYPE, which the replay checks when CHECKED
            SEND       an input message buffer: logged with --send-data
                       (DATA), checked by the replay when CHECKABLE
            IN         any other input: nothing logged; a field the replay
                       meets for it is accepted unchecked
            ASYNC      a buffer written when the started request completes:
                       registered with it (SHAPE recv, coll or vcoll)
            SPLIT_BEGIN  a split collective's buffer (N x TYPE), kept
                       with the file handle for its _end call
            SPLIT_END  that buffer, written by the _end call on file
                       handle FH: DATA, as its status says
            PARTIAL    an output the recorder cannot size: the record is
                       PARTIAL
            NONE       nothing logged (opaque, callback, strings in)
            PTR        one pointer-sized value (RAW, 8 bytes)
            STRING     an output string of at most CAP bytes (STRING),
                       or of *ENTRY bytes as the call starts
            VDATA      an output buffer per peer: COUNTS[i] x TYPE at DISPLS
            DATA       an output buffer: N x TYPE (as the status says when
                       the call has one)
            STATUS     an MPI_Status (STATUS)
            HANDLE     one 32-bit handle (HANDLE); NEWCOMM: a communicator,
                       whose members follow (MEMBERS)
            RAW        N elements of ETYPE as in memory (RAW)
    """

    def __init__(self, arg, kind, **kw):
        self.arg = arg
        self.kind = kind
        self.n = kw.get("n")            # count term (the spec's text)
        self.type = kw.get("type")      # datatype argument's name
        self.counts = kw.get("counts")  # VDATA / ASYNC vcoll
        self.displs = kw.get("displs")
        self.etype = kw.get("etype")
        self.checked = kw.get("checked")  # LOGGED_IN
        self.cap = kw.get("cap")
        self.fh = kw.get("fh")          # SPLIT_END: the file handle
        self.entry = kw.get("entry")    # STRING: its capacity is *ENTRY as
                                        # the call starts
        self.shape = kw.get("shape")
        self.checkable = kw.get("checkable", False)
        self.newcomm = kw.get("newcomm", False)
        self.at = arg.at


def plan(fn):
    """The Out of every argument of FN (None for by-value arguments)."""
    outs = []
    for a in fn.args:
        outs.append(plan_arg(fn, a) if a.direction else None)
    return outs


def plan_arg(fn, a):
    length = a.length
    mbuf = LEN_BUF.match(length or "")
    mvec = LEN_VEC.match(length or "")
    if a.direction == "in":
        if a.logged:
            return Out(a, "LOGGED_IN", n=length, etype=elem_type(a),
                       checked=a.logged == "logged")
        if mbuf and not mvec:
            return Out(a, "SEND", n=mbuf.group(1), type=mbuf.group(2),
                       checkable=not has_peer_term(mbuf.group(1)))
        return Out(a, "IN")
    if a.direction == "async" and "request" not in fn.slots and \
            fn.kind == "file" and mbuf and not mvec:
        # A split collective's _begin: the buffer goes with the file
        # handle until the _end call (split(fh)) logs it.
        return Out(a, "SPLIT_BEGIN", n=mbuf.group(1), type=mbuf.group(2))
    if a.direction == "async":
        if "request" not in fn.slots or not (mbuf or mvec) or \
                (mvec and fn.kind != "coll"):
            return Out(a, "PARTIAL")
        if mvec:
            counts, dtype, displs = mvec.groups()
            return Out(a, "ASYNC", shape="vcoll", counts=counts, type=dtype,
                       displs=displs)
        # A collective's request status carries no count: its whole buffer
        # is logged. So is MPI_Isendrecv(_replace)'s: MPICH runs it as a
        # schedule whose request status is empty (no count, source, tag).
        shape = "coll" if fn.kind in ("coll", "sendrecv") else "recv"
        return Out(a, "ASYNC", shape=shape, n=mbuf.group(1),
                   type=mbuf.group(2))
    # out / inout
    if length == "?":
        return Out(a, "PARTIAL")
    if length in ("opaque", "callback", "string", "string[]"):
        return Out(a, "NONE")
    if length == "ptr":
        return Out(a, "PTR")
    m = LEN_STR_ENTRY.match(length or "")
    if m:
        return Out(a, "STRING", cap=length, entry=m.group(1))
    m = LEN_SPLIT.match(length or "")
    if m:
        return Out(a, "SPLIT_END", fh=m.group(1))
    if length and (length.startswith("MPI_MAX_") or length == "valuelen+1"):
        return Out(a, "STRING", cap=length)
    if mvec:
        counts, dtype, displs = mvec.groups()
        return Out(a, "VDATA", counts=counts, type=dtype, displs=displs)
    if mbuf:
        return Out(a, "DATA", n=mbuf.group(1), type=mbuf.group(2))
    et = elem_type(a)
    if et == "MPI_Status":
        return Out(a, "STATUS") if length is None else Out(a, "PARTIAL")
    if length is None and not a.array and VALUE_SIZES.get(et) == 4 and \
            value_encoding(et) == "LOG_ENC_HANDLE":
        return Out(a, "HANDLE", newcomm=et == "MPI_Comm")
    return Out(a, "RAW", n=length, etype=et)


def status_arg(fn):
    """The out MPI_Status argument a receive reports what arrived in."""
    return next((a.name for a in fn.args
                 if a.ctype == "MPI_Status *" and a.direction == "out"),
                None)


def site_buffers(fn):
    """The message buffers whose addresses a record of FN carries
    (log-format.h, LOG_REC_SITE), in argument order: the choice buffers
    (void *) of a call that starts a request (nonblocking, persistent,
    partitioned, file and RMA request calls), for the checks of memory
    that pending operations share; of a one-sided operation (rma_op: its
    origin and result buffers, in use until its epoch ends; since log
    version 8, bufs_since); of a blocking communication call
    (buffers_if_pending), only in records with LOG_REC_BUFS. Each as
    (arg, count term, datatype argument), the term and type None when the
    span is not COUNT x TYPE (v- and w-collectives). MPI_Compare_and_swap
    (three buffers of one element) has none."""
    if not starts_request(fn) and not buffers_if_pending(fn) and \
            not rma_op(fn):
        return []
    if fn.kind == "rma" and len([a for a in fn.args if a.direction and
                                 "void *" in a.ctype]) > 2:
        return []
    bufs = []
    for a in fn.args:
        if a.direction and a.ctype.replace("const ", "").strip() == "void *" \
                and not a.array:
            m = LEN_BUF.match(a.length or "")
            if m and not LEN_VEC.match(a.length or ""):
                bufs.append((a, m.group(1), m.group(2)))
            else:
                bufs.append((a, None, None))
    assert len(bufs) <= 2, fn.name
    return bufs


def rma_op(fn):
    """Whether FN is a one-sided operation (an rma call with a target
    rank): MPI_Put, MPI_Get, the accumulates, their request forms."""
    return fn.kind == "rma" and any(a.name == "target_rank" for a in fn.args)


def bufs_since(fn):
    """The log version from which a record of FN carries its buffers
    (site_buffers): 8 for a one-sided operation that returns no request,
    5 (call sites) for the others."""
    return 8 if rma_op(fn) and not starts_request(fn) else 5


def starts_request(fn):
    """Whether FN returns a new request (MPI_Request *request out)."""
    return any(a.ctype == "MPI_Request *" and a.direction == "out" and
               not a.array for a in fn.args)


# The blocking calls whose buffers a record carries only while the rank
# has a request pending (LOG_REC_BUFS): communication
# that reads or writes a message buffer before it returns.
PENDING_KINDS = ("send", "recv", "sendrecv", "mrecv", "coll")


def buffers_if_pending(fn):
    """Whether FN is a blocking call whose buffers (site_buffers) a record
    carries only with LOG_REC_BUFS (log-format.h): while its rank has a
    request pending, for the checks of a blocking call on
    a pending operation's memory. Calls that start a request carry theirs
    in every record with a site."""
    return fn.kind in PENDING_KINDS and not starts_request(fn) and \
        not ({"nb", "persistent", "poll"} & fn.flags)


def is_persistent(fn):
    return "persistent" in fn.flags


# The count and datatype arrays of a v- or w-collective the checks read.
COUNT_ARRAYS = ("sendcounts", "recvcounts", "sendtypes", "recvtypes")


def is_neighbor_coll(fn):
    """Whether FN is a neighbourhood collective: its record holds the
    topology at the calling process (log-format.h, LOG_F_NEIGHBORS)."""
    return fn.kind == "coll" and "neighbor" in fn.flags


def count_arrays(fn):
    """The input arrays a record of FN logs for `drdb check`'s signature
    comparison (log-format.h, LOG_F_ARRAY): the per-peer counts and
    datatypes of a v- or w-collective (a neighbourhood one's too: per
    neighbour, in its topology's order), MPI_Reduce_scatter's recvcounts.
    Each as (number of the argument, arg, where: 'root' significant at
    the root only, 'send' only when sendbuf is not MPI_IN_PLACE, None
    everywhere)."""
    if fn.kind != "coll":
        return []
    rooted = any(a.name == "root" for a in fn.args)
    out = []
    for i, a in enumerate(fn.args):
        if a.direction != "in" or not a.array or a.name not in COUNT_ARRAYS:
            continue
        if rooted:
            # Gatherv's recvcounts, Scatterv's sendcounts: the root's.
            where = "root"
        elif a.name.startswith("send"):
            where = "send"
        else:
            where = None
        out.append((i, a, where))
    return out
