#!/bin/sh
# The spec's front end (log/mpispec.py) refuses what would generate wrong
# code, naming the line: each case below is one spec line the rules forbid,
# checked for its message; and the real spec passes.
# usage: test-spec.sh PYTHON GEN_FUNCTABLE SPEC
set -u
python=$1 gen=$2 spec=$3
export PYTHONPATH="$(dirname "$gen")" PYTHONDONTWRITEBYTECODE=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"

# refuse NAME 'LINE' 'MESSAGE': a spec of the reasons and LINE fails with
# MESSAGE, on line 2.
refuse() {
    printf '%s\n%s\n' '%unsupported shm "shared memory"' "$2" > "$tmp/spec"
    if "$python" "$gen" "$tmp/spec" "$tmp/f.h" "$tmp/p.h" \
            "$tmp/a.h" "$tmp/d.c" > "$tmp/out" 2>&1; then
        fail "$1: accepted"
    elif grep -q "spec:2: .*$3" "$tmp/out"; then
        ok "$1"
    else
        fail "$1: wrong message"
        sed 's/^/#   /' "$tmp/out"
    fi
}

if "$python" "$gen" "$spec" "$tmp/f.h" "$tmp/p.h" "$tmp/a.h" \
        "$tmp/d.c" > "$tmp/out" 2>&1; then
    ok "the real spec is accepted"
else
    fail "the real spec is refused"
    sed 's/^/#   /' "$tmp/out"
fi

refuse "no role" \
    '1 auto int MPI_Barrier(MPI_Comm comm)' "expected 'ID CLASS ROLES"
refuse "unknown role" \
    '1 auto cool int MPI_Barrier(MPI_Comm comm)' "unknown role 'cool'"
refuse "two kinds" \
    '1 auto coll,send int MPI_Barrier(MPI_Comm comm)' "two role kinds"
refuse "unknown class" \
    '1 manual(gdb) coll int MPI_Barrier(MPI_Comm comm)' "class 'manual(gdb)'"
refuse "unknown reason" \
    '1 auto rma,unsupported(nfs) int MPI_Win_sync(MPI_Win win)' "no '%unsupported nfs"
refuse "nb without a request" \
    '1 auto send,nb int MPI_Send(in const void *buf {count x datatype}, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)' \
    "need an out MPI_Request"
refuse "a send without tag" \
    '1 auto send int MPI_Bad(in const void *buf {count x datatype}, int count, MPI_Datatype datatype, int dest, MPI_Comm comm)' \
    "needs comm and tag"
refuse "a rooted buffer without 'at'" \
    '1 auto coll int MPI_Bcast(inout void *buffer {count x datatype}, int count, MPI_Datatype datatype, int root, MPI_Comm comm)' \
    "needs '; at root|nonroot|all'"
refuse "'at' outside a rooted collective" \
    '1 auto coll int MPI_Allreduce(in const void *sendbuf {count x datatype; at root}, out void *recvbuf {count x datatype}, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)' \
    "'at' is for the buffers"
refuse "size(comm) in a neighbourhood collective" \
    '1 auto coll,neighbor int MPI_Neighbor_allgather(in const void *sendbuf {sendcount x sendtype}, int sendcount, MPI_Datatype sendtype, out void *recvbuf {size(comm) * recvcount x recvtype}, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)' \
    "indegree(comm) or outdegree(comm)"
refuse "a comm-ctor without a new communicator" \
    '1 auto comm-ctor int MPI_Comm_free(inout MPI_Comm *comm)' \
    "has an out MPI_Comm"
refuse "a nonblocking comm-ctor that duplicates no communicator" \
    '1 auto comm-ctor,nb,group int MPI_Comm_idup(MPI_Group group, out MPI_Comm *newcomm, out MPI_Request *request)' \
    "duplicates its communicator"
refuse "a recorder hook on a call that returns no error code" \
    '1 manual(rec) local MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp)' \
    "recorder hook is for calls that return an error code"
refuse "'logged' on an output" \
    '1 auto local int MPI_Comm_rank(MPI_Comm comm, out int *rank {1; logged})' \
    "only an input array can be 'logged'"
refuse "a pointer without a direction" \
    '1 auto local int MPI_Comm_rank(MPI_Comm comm, int *rank)' \
    "needs a direction"
refuse "'free' without an inout handle" \
    '1 auto local,free int MPI_Comm_free_keyval(inout int *comm_keyval)' \
    "a 'free' call has one inout handle argument"
refuse "a send mode on a receive" \
    '1 auto recv,sync int MPI_Recv(out void *buf {count x datatype}, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, out MPI_Status *status)' \
    "'sync' is a send mode"
refuse "two send modes" \
    '1 auto send,sync,ready int MPI_Ssend(in const void *buf {count x datatype}, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)' \
    "two send modes"
refuse "'all' on a completion of one request" \
    '1 manual completion,all int MPI_Wait(inout MPI_Request *request, out MPI_Status *status)' \
    "'all' is for completions of a request array"
refuse "'mpi-owned' on a call that returns no handle" \
    '1 auto local,mpi-owned int MPI_Comm_rank(MPI_Comm comm, out int *rank)' \
    "'mpi-owned' is for calls that return a handle"
refuse "'abort' on a call that is no life cycle" \
    '1 auto local,abort int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)' \
    "'abort' is for 'lifecycle' calls"
refuse "'abort' and 'finalize' on one call" \
    '1 manual lifecycle,abort,finalize int MPI_Abort(MPI_Comm comm, int errorcode)' \
    "'abort' and 'finalize' are two calls"
refuse "'abort' without its error code" \
    '1 manual lifecycle,abort int MPI_Finalize(void)' \
    "an 'abort' call has a comm and an errorcode argument"
refuse "'examines' without an error code" \
    '1 auto local,examines int MPI_Add_error_class(out int *errorclass)' \
    "'examines' needs the errorcode argument"
refuse "'errhandler' without an error handler function" \
    '1 auto local,errhandler int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)' \
    "an 'errhandler' call, and only it, takes"
refuse "an error handler function without 'errhandler'" \
    '1 manual local int MPI_Comm_create_errhandler(in MPI_Comm_errhandler_function *comm_errhandler_fn {callback}, out MPI_Errhandler *errhandler)' \
    "an 'errhandler' call, and only it, takes"
refuse "an RMA synchronization on a call that is not 'rma'" \
    '1 auto local,rma-fence int MPI_Win_fence(int assert, MPI_Win win)' \
    "'rma-fence' is one synchronization of an 'rma' call"
refuse "two RMA synchronizations" \
    '1 auto rma,rma-lock,rma-unlock int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)' \
    "'rma-lock' is one synchronization of an 'rma' call"
refuse "an RMA synchronization without a window" \
    '1 auto rma,rma-fence int MPI_Win_sync(int assert)' \
    "on a window given by value"
echo "1..$n"
exit $status
