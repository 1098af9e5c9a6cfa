# tests/remote/lib-node.sh - what of a test runs on the "node" (sourced,
# after tests/lib-sshd.sh's sshd_start): the drdb the node runs,
# $tmp/drdb-node, is $drdb with a mark in its environment that the agent
# passes on to the GDBs it starts and they to their programs.
#
#   node_drdb NAME   makes $tmp/drdb-node with a mark unique to this test
#                    (NAME, the pid, the time)
#   on_node          the names of the marked processes still running
#   gone             waits (5 s) until nothing marked runs; what still
#                    runs then in $left: 0, or 1
#   node_jacobi      records examples/jacobi ($jacobi: 2 ranks, a 16x16
#                    grid, 3 iterations, with $mpiexec) as $tmp/node/run,
#                    rank R's output in $tmp/node/out.R; makes $tmp/here
#   live_wait N RE   a console fed by a fifo ($console, its output in
#                    $tmp/live): until that has N lines matching the basic
#                    regex RE (30 s): 0, or 1 (the console ended, or not)
node_drdb() {
    mark="$1-$$-$(date +%s%N)"
    printf '#!/bin/sh\nDRDB_TEST_MARK=%s exec "%s" "$@"\n' "$mark" \
        "$drdb" > "$tmp/drdb-node"
    chmod +x "$tmp/drdb-node"
}
on_node() {
    grep -l "DRDB_TEST_MARK=$mark" /proc/[0-9]*/environ 2> /dev/null |
        sed 's|/proc/\([0-9]*\)/environ|\1|' |
        while read -r p; do
            printf '%s ' "$(cat "/proc/$p/comm" 2> /dev/null)"
        done
}
gone() {
    for _ in $(seq 50); do
        left=$(on_node)
        [ -z "$left" ] && return 0
        sleep 0.1
    done
    return 1
}
node_jacobi() {
    mkdir -p "$tmp/node" "$tmp/here"
    (cd "$tmp/node" && timeout 120 "$drdb" record -o run -- "$mpiexec" \
        -n 2 -outfile-pattern "$tmp/node/out.%r" "$jacobi" 16 3 \
        > rec.log 2>&1)
}
live_wait() {
    for _ in $(seq 300); do
        [ "$(grep -c -- "$2" "$tmp/live")" -ge "$1" ] && return 0
        kill -0 "$console" 2> /dev/null || return 1
        sleep 0.1
    done
    return 1
}
