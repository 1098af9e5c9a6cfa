#!/bin/sh
# drdb check's coll.* checks (docs/check.md): each planted program of
# tests/mpicheck/ gets exactly the findings written below, from its
# comments and call order (every rank's events: MPI_Init 0, MPI_Comm_rank
# 1, MPI_Comm_set_errhandler 2, then the calls in the program's order; a
# finding's sites are the members' calls, the rooted one's root first),
# and its fixed twin none.
# usage: test-check-coll.sh DRDB MPIEXEC PROG...
set -u
drdb=$(realpath "$1") mpiexec=$2
shift 2
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
n=0 status=0
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/findings.sh"
programs "$@"

# Event 3 at both: MPI_Bcast at rank 0, MPI_Scatter at rank 1.
expect_findings coll-operation-bad 2 'coll.*' \
    "error coll.operation 0:3 1:3"
expect_findings coll-operation-ok 2 'coll.*'

# Event 3 at both: MPI_Bcast with root 0 at rank 0, root 1 at rank 1.
expect_findings coll-root-bad 2 'coll.*' \
    "error coll.root 0:3 1:3"
expect_findings coll-root-ok 2 'coll.*'

# Event 4 (MPI_Allreduce, after MPI_Op_create 3) and 5 (MPI_Reduce).
expect_findings coll-op-bad 2 'coll.*' \
    "error coll.op 0:4 1:4" \
    "error coll.op 0:5 1:5"
expect_findings coll-op-ok 2 'coll.*'

# After the contiguous type and its commit (3, 4): MPI_Bcast 5, MPI_Gather
# 6, MPI_Allgather 7, each with rank 0 (the root, or the first member)
# first.
expect_findings coll-signature-bad 2 'coll.*' \
    "error coll.signature 0:5 1:5" \
    "error coll.signature 0:6 1:6" \
    "error coll.signature 0:7 1:7"
has "coll-signature-bad: the calls and what differs" \
    "$tmp/coll-signature-bad.out" \
    "error coll.signature: collective #0 on MPI_COMM_WORLD: MPI_Bcast(count 4, MPI_INT, root 0, MPI_COMM_WORLD) at rank 0 and MPI_Bcast(count 2, MPI_DOUBLE, root 0, MPI_COMM_WORLD) at rank 1 do not move the same data: the same bytes, but the type signatures differ at byte 0 (MPI_INT against MPI_DOUBLE)" \
    "error coll.signature: collective #1 on MPI_COMM_WORLD: MPI_Gather(sendcount 4, MPI_INT, recvcount 4, MPI_INT, root 0, MPI_COMM_WORLD) at rank 0 and MPI_Gather(sendcount 2, MPI_INT, recvcount 4, MPI_INT, root 0, MPI_COMM_WORLD) at rank 1 do not move the same data: 16 bytes against 8 bytes"
expect_findings coll-signature-ok 2 'coll.*'

# v-collectives: MPI_Gatherv 3 (the root first), MPI_Alltoallv 4 (the
# receiver that expects more, rank 1, first).
expect_findings coll-vsignature-bad 2 'coll.*' \
    "error coll.signature 0:3 1:3" \
    "error coll.signature 1:4 0:4"
has "coll-vsignature-bad: the pieces that differ" \
    "$tmp/coll-vsignature-bad.out" \
    "error coll.signature: collective #0 on MPI_COMM_WORLD: MPI_Gatherv(sendcount 2, MPI_INT, MPI_INT, root 0, MPI_COMM_WORLD) at rank 0 and MPI_Gatherv(sendcount 2, MPI_INT, MPI_INT, root 0, MPI_COMM_WORLD) at rank 1 do not move the same data: 12 bytes against 8 bytes" \
    "error coll.signature: collective #1 on MPI_COMM_WORLD: MPI_Alltoallv(MPI_INT, MPI_INT, MPI_COMM_WORLD) at rank 1 and MPI_Alltoallv(MPI_INT, MPI_INT, MPI_COMM_WORLD) at rank 0 do not move the same data: 12 bytes against 8 bytes"
expect_findings coll-vsignature-ok 2 'coll.*'

# Buffer addresses (calls that start a request): the root's own piece,
# its call twice (receive piece and send piece for MPI_Igather 3, send
# piece and receive piece for MPI_Iscatter 5).
expect_findings coll-inplace-bad 2 'coll.*' \
    "error coll.signature 0:3 0:3" \
    "error coll.signature 0:5 0:5"
hasre "coll-inplace-bad: the root's own pieces" \
    "$tmp/coll-inplace-bad.out" \
    '^error coll\.signature: collective #0 on MPI_COMM_WORLD: MPI_Igather(sendcount 2, MPI_INT, recvcount 4, MPI_INT, root 0, MPI_COMM_WORLD) at rank 0 and MPI_Igather(sendcount 2, MPI_INT, recvcount 4, MPI_INT, root 0, MPI_COMM_WORLD) at rank 0 do not move the same data: 16 bytes against 8 bytes$' \
    '^error coll\.signature: collective #1 on MPI_COMM_WORLD: MPI_Iscatter(.*) at rank 0 and .* at rank 0 do not move the same data: the same bytes, but the type signatures differ at byte 0 (MPI_INT against MPI_FLOAT)$'
expect_findings coll-inplace-ok 2 'coll.*'
# Neighbourhood collectives, 4 ranks, each pair of neighbours (the
# receiver first). A periodic ring's MPI_Neighbor_alltoall 4 (on comm #2,
# after MPI_COMM_WORLD and MPI_COMM_SELF): rank 2 expects 2 ints from each
# neighbour, ranks 1 and 3 send it 1.
expect_findings coll-nsignature-cart-bad 4 'coll.*' \
    "error coll.signature 2:4 1:4" \
    "error coll.signature 2:4 3:4"
has "coll-nsignature-cart-bad: the pieces that differ" \
    "$tmp/coll-nsignature-cart-bad.out" \
    "error coll.signature: collective #0 on comm #2: MPI_Neighbor_alltoall(sendcount 1, MPI_INT, recvcount 2, MPI_INT, comm #2 (0x84000001)) at rank 2 and MPI_Neighbor_alltoall(sendcount 1, MPI_INT, recvcount 1, MPI_INT, comm #2 (0x84000001)) at rank 1 do not move the same data: 8 bytes against 4 bytes"
expect_findings coll-nsignature-cart-ok 4 'coll.*'

# A distributed graph's MPI_Ineighbor_alltoallv 4: rank 2 expects 5 ints
# from rank 1, which sends it 4.
expect_findings coll-nsignature-graph-bad 4 'coll.*' \
    "error coll.signature 2:4 1:4"
expect_findings coll-nsignature-graph-ok 4 'coll.*'

# A 2 x 2 grid periodic in dimension 0, MPI_Neighbor_alltoallw 4: each
# rank's MPI_INT sent to its neighbour in dimension 0 (rank ^ 2) arrives
# in an MPI_FLOAT block under MPI's pairing of blocks; the fixed twin
# agrees under it (and would not block by block).
expect_findings coll-nsignature-dir-bad 4 'coll.*' \
    "error coll.signature 2:4 0:4" \
    "error coll.signature 3:4 1:4" \
    "error coll.signature 0:4 2:4" \
    "error coll.signature 1:4 3:4"
expect_findings coll-nsignature-dir-ok 4 'coll.*'
# What the recorder logged of the topologies (MPI 4.0 section 8.6's
# order): rank 0 of the grid, dimension 0 source and destination 2,
# dimension 1 none (-1) and 1; rank 2 of the distributed graph, its
# sources 1 0 and destinations 3 0 as the program lists them.
"$drdb" log event "$tmp/coll-nsignature-dir-bad.run" 0:4 \
    > "$tmp/nbr-cart.ev" 2>&1
hasre "the recorder logs a Cartesian rank's neighbours" "$tmp/nbr-cart.ev" \
    '^    neighbors *- *cartesian, in 2 2 -1 1, out 2 2 -1 1$'
"$drdb" log event "$tmp/coll-nsignature-graph-bad.run" 2:4 \
    > "$tmp/nbr-graph.ev" 2>&1
hasre "the recorder logs a distributed graph rank's neighbours" \
    "$tmp/nbr-graph.ev" \
    '^    neighbors *- *distributed graph, in 1 0, out 3 0$'

# Ranks 0 and 1's MPI_Bcast 3; rank 2's last call, MPI_Finalize 3.
expect_findings coll-missing-member-bad 3 'coll.*' \
    "error coll.missing-member 0:3 1:3 2:3"
expect_findings coll-missing-member-ok 3 'coll.*'

# Intercommunicators (mpicheck-inter.h: world ranks 0, 1 against 2, 3;
# the collectives from event 6). MPI_Bcast #0 6: the root (world rank 0)
# first, then world rank 3, which names root 1; #1 7: world ranks 0 and 1
# both pass MPI_ROOT.
expect_findings coll-inter-root-bad 4 'coll.*' \
    "error coll.root 0:6 3:6" \
    "error coll.root 0:7 1:7"
hasre "coll-inter-root-bad: the wrong root, the two MPI_ROOTs" \
    "$tmp/coll-inter-root-bad.out" \
    '^error coll\.root: collective #0 on comm #[0-9]*: MPI_Bcast(count 4, MPI_INT, root 1, comm #[0-9]* (0x[0-9a-f]*)) at rank 3 passes root 1, but the root is rank 0 of the other group (MPI_Bcast(count 4, MPI_INT, root MPI_ROOT, comm #[0-9]* (0x[0-9a-f]*)) at rank 0)$' \
    '^error coll\.root: collective #1 on comm #[0-9]*: 2 members pass MPI_ROOT: MPI_Bcast(count 4, MPI_INT, root MPI_ROOT, comm [^)]*)) at rank 0 and MPI_Bcast(count 4, MPI_INT, root MPI_ROOT, comm [^)]*)) at rank 1 '
expect_findings coll-inter-root-ok 4 'coll.*'

# MPI_Gather 6: the root (world rank 0) against each member of the other
# group; MPI_Allgather 7: world rank 3 (receiving MPI_FLOAT) against the
# first sender of the other group, world rank 0.
expect_findings coll-inter-signature-bad 4 'coll.*' \
    "error coll.signature 0:6 2:6" \
    "error coll.signature 0:6 3:6" \
    "error coll.signature 3:7 0:7"
hasre "coll-inter-signature-bad: the pieces that differ" \
    "$tmp/coll-inter-signature-bad.out" \
    '^error coll\.signature: collective #0 on comm #[0-9]*: MPI_Gather(sendcount 2, MPI_INT, recvcount 3, MPI_INT, root MPI_ROOT, comm [^)]*)) at rank 0 and MPI_Gather(sendcount 2, MPI_INT, recvcount 3, MPI_INT, root 0, comm [^)]*)) at rank 3 do not move the same data: 12 bytes against 8 bytes$' \
    '^error coll\.signature: collective #1 on comm #[0-9]*: MPI_Allgather(sendcount 1, MPI_INT, recvcount 1, MPI_FLOAT, comm [^)]*)) at rank 3 and MPI_Allgather(sendcount 1, MPI_INT, recvcount 1, MPI_INT, comm [^)]*)) at rank 0 do not move the same data: the same bytes, but the type signatures differ at byte 0 (MPI_FLOAT against MPI_INT)$'
expect_findings coll-inter-signature-ok 4 'coll.*'

# Every intercommunicator collective used correctly, groups of 3 and 1
# whose world ranks interleave: nothing.
expect_findings coll-inter-many-ok 4 'coll.*'
# Its MPI_Reduce_scatter (event 18 at every rank): recvcounts logged with
# one element per member of the caller's own group: world rank 1 (group
# b, alone) logs {3}, world rank 0 (group a, 3 members) logs {1, 1, 1}
# (LOG_F_ARRAY, zigzag varints: 06; 02 02 02), not as many as the remote
# group has, which read past b's array.
"$drdb" log event "$tmp/coll-inter-many-ok.run" 1:18 > "$tmp/rs1" 2>&1
"$drdb" log event "$tmp/coll-inter-many-ok.run" 0:18 > "$tmp/rs0" 2>&1
if grep -Eq '^    array +- +1 bytes: 06$' "$tmp/rs1" &&
    grep -Eq '^    array +- +3 bytes: 020202$' "$tmp/rs0"; then
    ok "recorder: an intercommunicator MPI_Reduce_scatter's recvcounts has its own group's length"
else
    fail "recorder: an intercommunicator MPI_Reduce_scatter's recvcounts length"
    sed 's/^/#   /' "$tmp/rs1" "$tmp/rs0"
fi

echo "1..$n"
exit $status
