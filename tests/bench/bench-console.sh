#!/bin/bash
# bench-console.sh - the console's speed and its GDBs' memory (issue 21,
# part 3), measured in one run:
#   1. 64 real ranks of jacobi started under GDB and run to main (--start
#      main; oversubscribed on this machine), each GDB's memory read from
#      /proc (smaps_rollup) while they stand there: RSS, and PSS (shared
#      pages split among the GDBs sharing them: what a GDB really adds);
#      then a merged print, goto an event and restart on all 64. Twice:
#      as drdb starts GDBs now, and as it did before (each GDB reading the
#      system's separate debug info: --debug-file-directory
#      /usr/lib/debug), with the ratios. Targets: 64 to main < 5 s, the
#      print < 100 ms.
#   2. `drdb console --ranks 0-1023` of a 1,024-rank run at its prompt
#      (every rank in the session, no GDB started: --start lazy, the
#      default above 64 ranks), then `status`, `events` of one rank and
#      `print` on one rank (its GDB started then). Target: the prompt in
#      < 2 s. The run's logs are synthetic (gen-run: recording 1,024 real
#      ranks takes minutes here), its program jacobi (it runs to main only).
# usage: bench-console.sh DRDB MPIEXEC JACOBI GEN_RUN
set -u
drdb=$1 mpiexec=$2 jacobi=$3 gen_run=$4
tmp=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; exec 3>&- 2>/dev/null;
      rm -rf "$tmp"' EXIT
ms() { date +%s%N | cut -c1-13; }

"$drdb" record -o "$tmp/r64" -- "$mpiexec" -n 64 "$jacobi" 32 2 \
    > /dev/null 2>&1 || { echo "recording 64 ranks failed" >&2; exit 1; }

# session NAME [OPTIONS]: 64 ranks to main in a console fed by a fifo; the
# GDBs' memory there; then the commands. Sets start_NAME, rss_NAME,
# pss_NAME, print_NAME, goto_NAME, restart_NAME.
session() {
    name=$1; shift
    rm -f "$tmp/in"; mkfifo "$tmp/in"
    "$drdb" console --start main --ranks 0-63 "$@" "$tmp/r64" < "$tmp/in" \
        > "$tmp/$name" 2>&1 &
    pid=$!
    exec 3> "$tmp/in"
    for _ in $(seq 1200); do
        grep -q '^replaying ranks 0-63, stopped at main' "$tmp/$name" && break
        sleep 0.1
    done
    mem=$(for g in $(pgrep -P "$pid" -x gdb); do
              cat "/proc/$g/smaps_rollup" 2>/dev/null
          done | awk '$1 == "Rss:" { r += $2 } $1 == "Pss:" { p += $2; n++ }
                      END { printf "%.1f %.1f %d", r / n / 1024, p / n / 1024, n }')
    printf '%s\n' "set timing on" "print rank" "print rank" "print rank" \
        "goto 5" restart quit >&3
    exec 3>&-
    wait "$pid"
    pid=
    took() { sed -n "s/^drdb: '$1' took \([0-9]*\) ms$/\1/p" "$tmp/$name" | sort -n | sed -n "${2:-1}p"; }
    eval "start_$name=$(sed -n 's/^drdb: 64 ranks started in \([0-9.]*\) s$/\1/p' "$tmp/$name" | head -1)"
    eval "rss_$name=${mem%% *} pss_$name=$(echo "$mem" | cut -d' ' -f2)"
    eval "ngdb_$name=${mem##* }"
    eval "print_$name=$(took 'print rank' 2) goto_$name=$(took 'goto 5')"
    eval "restart_$name=$(took restart)"
}
session now
session old --debug-file-directory /usr/lib/debug
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }
echo "64 ranks, --start main (now / before: with the system's debug info):"
echo "  to main:          ${start_now} s / ${start_old} s ($(ratio "$start_now" "$start_old")) (target < 5 s)"
echo "  per GDB at main:  RSS ${rss_now} / ${rss_old} MB ($(ratio "$rss_now" "$rss_old")), PSS ${pss_now} / ${pss_old} MB ($(ratio "$pss_now" "$pss_old")) ($ngdb_now / $ngdb_old GDBs)"
echo "  merged print:     ${print_now} / ${print_old} ms (median of 3; target < 100 ms)"
echo "  goto 5:           ${goto_now} / ${goto_old} ms"
echo "  restart (to main): ${restart_now} / ${restart_old} ms ($(ratio "$restart_now" "$restart_old"))"

# ---- 1,024 ranks at the prompt
"$gen_run" "$tmp/g1024" 1024 1000 > /dev/null ||
    { echo "gen-run failed" >&2; exit 1; }
grep -Ev '^(format|world_size|command|signature) ' "$tmp/r64/drdb.run" >> "$tmp/g1024/drdb.run"
echo "command mpiexec -n 1024 $jacobi 32 2" >> "$tmp/g1024/drdb.run"
"$drdb" log sign "$tmp/g1024" > /dev/null || exit 1 # made here: the user's own
printf '%s\n' "set timing on" status "events @517 --count 2" \
    "print rank @517" > "$tmp/t.drdb"
t0=$(ms)
"$drdb" batch --ranks 0-1023 "$tmp/g1024" "$tmp/t.drdb" > "$tmp/out1024" \
    2> "$tmp/err1024" || { cat "$tmp/err1024" >&2; exit 1; }
t1=$(ms)
# the prompt: the whole session less its commands' own times
cmds=$(sed -n "s/^drdb: '.*' took \([0-9]*\) ms$/\1/p" "$tmp/err1024" |
       awk '{ s += $1 } END { print s + 0 }')
took() { sed -n "s/^drdb: '$1' took \([0-9]*\) ms$/\1/p" "$tmp/err1024"; }
echo "1024 ranks (lazy): at the prompt in $((t1 - t0 - cmds)) ms (target < 2000 ms);" \
     "status $(took status) ms, events of one rank $(took 'events @517 --count 2') ms" \
     "(its index alone built then), print on one rank $(took 'print rank @517') ms" \
     "(its GDB started to main then)"
