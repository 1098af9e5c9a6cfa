#!/bin/bash
# bench-console.sh - the console's speed and its GDBs' memory (issue 21,
# part 3), measured in one run:
#   1. `drdb console --ranks 0-1023` of a 1,024-rank run at its prompt
#      (every rank in the session, no GDB started: --start lazy, the
#      default above 64 ranks), then `status`, `events` of one rank and
#      `print` on one rank (its GDB started then). Target: the prompt in
#      < 2 s. The run's logs are synthetic (gen-run: recording 1,024 real
#      ranks takes minutes here), its program jacobi (it runs to main only).
#   2. 16 and 64 real ranks of jacobi started under GDB and run to main
#      (--start main; oversubscribed on this machine), a merged print on
#      64 stopped ranks, goto an event and restart on all of them.
#      Targets: 64 to main in < 5 s, the print < 100 ms.
#   3. Each GDB's memory, read from /proc (smaps_rollup) while 64 ranks
#      stand at main: RSS, and PSS (shared pages split among the GDBs that
#      share them: what a GDB really adds).
# usage: bench-console.sh DRDB MPIEXEC JACOBI GEN_RUN
set -u
drdb=$1 mpiexec=$2 jacobi=$3 gen_run=$4
tmp=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; exec 3>&- 2>/dev/null;
      rm -rf "$tmp"' EXIT
ms() { date +%s%N | cut -c1-13; }

# ---- 2 first: the 64-rank run also lends its description to the synthetic
printf '%s\n' "set timing on" "print rank" "print rank" "print rank" "goto 5" \
    restart > "$tmp/s.drdb"
for np in 16 64; do
    "$drdb" record -o "$tmp/r$np" -- "$mpiexec" -n $np "$jacobi" 32 2 \
        > /dev/null 2>&1 || { echo "recording $np ranks failed" >&2; exit 1; }
    "$drdb" batch --start main --ranks 0-$((np - 1)) "$tmp/r$np" "$tmp/s.drdb" \
        > "$tmp/out$np" 2> "$tmp/err$np" || { cat "$tmp/err$np" >&2; exit 1; }
    start=$(sed -n 's/^drdb: \([0-9]*\) ranks started in \([0-9.]*\) s$/\2/p' "$tmp/err$np" |
            head -1)
    print=$(sed -n "s/^drdb: 'print rank' took \([0-9]*\) ms$/\1/p" "$tmp/err$np" |
            sort -n | sed -n 2p)
    took() { sed -n "s/^drdb: '$1' took \([0-9]*\) ms$/\1/p" "$tmp/err$np"; }
    echo "$np ranks (--start main): started and stopped at main in $start s" \
         "($(awk -v s="$start" -v n=$np 'BEGIN { printf "%.0f", s * 1000 / n }') ms a rank);" \
         "merged print: $print ms (median of 3); goto 5 (forward):" \
         "$(took 'goto 5') ms; restart (every GDB anew, to main): $(took restart) ms"
done
echo "  targets: 64 ranks to main < 5 s, print on 64 ranks < 100 ms"

# ---- 3: the GDBs' memory at main, 64 ranks
mkfifo "$tmp/in"
"$drdb" console --start main --ranks 0-63 "$tmp/r64" < "$tmp/in" \
    > "$tmp/live" 2>&1 &
pid=$!
exec 3> "$tmp/in"
for _ in $(seq 600); do
    grep -q '^replaying ranks 0-63, stopped at main' "$tmp/live" && break
    sleep 0.1
done
gdbs=$(pgrep -P "$pid" -x gdb)
ngdb=$(echo "$gdbs" | grep -c .)
for g in $gdbs; do
    cat "/proc/$g/smaps_rollup" 2>/dev/null
done | awk -v n="$ngdb" '
    $1 == "Rss:" { rss += $2 } $1 == "Pss:" { pss += $2 }
    END { printf "%d GDBs at main: per GDB RSS %.1f MB, PSS %.1f MB " \
                 "(all: PSS %.0f MB)\n", n, rss / n / 1024, pss / n / 1024,
                 pss / 1024 }'
echo quit >&3
exec 3>&-
wait "$pid"
pid=

# ---- 1: 1,024 ranks at the prompt
"$gen_run" "$tmp/g1024" 1024 1000 > /dev/null ||
    { echo "gen-run failed" >&2; exit 1; }
grep -Ev '^(format|world_size|command) ' "$tmp/r64/drdb.run" >> "$tmp/g1024/drdb.run"
echo "command mpiexec -n 1024 $jacobi 32 2" >> "$tmp/g1024/drdb.run"
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
     "(the event index built then), print on one rank $(took 'print rank @517') ms" \
     "(its GDB started to main then)"
