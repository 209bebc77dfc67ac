#!/usr/bin/env bash
# tests/test-peers.sh — docs/benchmarks/peers.sh's plumbing, in a second, with stand-ins: the
# five peer scripts replaced (PEER_SCRIPTS) by ones that print crafted rounds in each real
# script's documented form (memory-vs-stream's and memory-vs-lmbench's "# raw:" lines,
# disk-vs-fio's per-run lines, network-vs-peers' "round R ROW: ours ... | theirs ...",
# fidelity-unixbench's TSV), and a PEERS_DIR of empty stand-in trees. It checks:
#   - every group's rows reach the one table, named PEER:WHAT, with each side's median and
#     ours/theirs paired by round (a drifting host's rounds: 0.968, not the medians' 0.367),
#     its rounds' range and how many were paired;
#   - the limit is peer-lib.sh's peer_limit: 1.12 is OUTSIDE for a STREAM row (10%) and within
#     for a lat_mem_rd one (15%); 0.80 is OUTSIDE for fio;
#   - the rounds are interleaved: each round runs every group once, in order, before the next;
#   - a peer script failing in one round is named with its status, the run goes on, and its
#     rows say 2 rounds paired; a missing peer (no netperf build; no fio on PATH) is named on
#     stderr and its rows left out, the rest measured (network-vs-peers gets only the rows
#     whose tools are here, in ROWS);
#   - a peer that hangs is stopped after PEER_TIMEOUT (its round FAILED, the rest measured,
#     nothing left running); a figure that is none (1e999, nan, abc) gives that round no
#     figure, named on stderr, in a run and in --table (not a ratio of 0 judged OUTSIDE);
#   - the markdown copy holds the same rows; --table LOG gives the same table from the run's
#     raw lines (its stdout's or its stderr's); usage errors (no PEERS_DIR, an unknown ONLY name,
#     ROUNDS=0) are status 2 before anything runs; no peer at all is status 1.
# In:  bash, awk (nothing built). Out: one line per check, then "N passed, M failed, K skipped".
# shellcheck disable=SC2016  # the stand-ins' code in single quotes: expanded when they run
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
peers=$top/docs/benchmarks/peers.sh

# The stand-in trees and tools: what peers.sh looks for, nothing that runs.
mkdir -p "$tmp/p/STREAM" "$tmp/p/lmbench/src" "$tmp/p/byte-unixbench/UnixBench/pgms" "$tmp/bin" "$tmp/s" "$tmp/state"
: >"$tmp/p/STREAM/stream.c"
: >"$tmp/p/lmbench/src/lat_mem_rd.c"
printf '#!/bin/sh\nexit 0\n' >"$tmp/p/byte-unixbench/UnixBench/pgms/looper"
for t in fio sockperf iperf3; do printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/$t"; done
chmod +x "$tmp/p/byte-unixbench/UnixBench/pgms/looper" "$tmp/bin"/*

# The stand-in scripts. Each counts its calls (its round) in $STATE/NAME and logs
# "NAME ROUND ARGS" to $STATE/calls; pick A B C prints the round's value of three.
common='n=$(($(cat "$STATE/$me" 2>/dev/null || echo 0) + 1)); echo $n >"$STATE/$me"
echo "$me $n $*" >>"$STATE/calls"
pick() { eval "echo \${$n}"; }'
mk() {
	printf '#!/usr/bin/env bash\nme=%s\n%s\n%s\n' "$1" "$common" "$2" >"$tmp/s/$1"
	chmod +x "$tmp/s/$1"
}
mk memory-vs-stream.sh 'echo "ARRAY=$ARRAY" >>"$STATE/calls"
echo "# STREAM abc for 1 copy: array 1 elements"
echo "# raw: ours 1 1 copy 105.0 100.0"
echo "# raw: ours 1 1 add $(pick 100 110 300) 1"
echo "# raw: ours 1 1 triad 112 1"
echo "# raw: ours 1 2 add 200 1"
echo "# raw: stream 1 1 copy 100.0 90.0"
echo "# raw: stream 1 1 add $(pick 100 300 310) 1"
echo "# raw: stream 1 1 triad 100 1"
echo "# raw: stream 1 2 add 210 1"
echo "kernel  copies STREAM_best (a table line, not read)"'
mk memory-vs-lmbench.sh 'echo "# raw: ours 1 16k 1.05"
echo "# raw: ours 1 512k 11.2"
echo "# raw: lmbench 1 16k 1.0"
echo "# raw: lmbench 1 512k 10"
echo "point lat_mem_rd ours_4k"'
mk disk-vs-fio.sh '[ -z "${FIO_FAIL_ALL:-}" ] || { echo "fio: fails every round"; exit 4; }
[ "$n" != 2 ] || { echo "fio: injected failure"; exit 3; }
echo "# header"
echo "1 disk-randread-4k-qd32 ours 80 0.5"
echo "1 disk-randread-4k-qd32 theirs 100 0.5"
echo "1 disk-flush:flush ours 1000 0.5"
echo "1 disk-flush:flush theirs 1000 0.5"'
mk network-vs-peers.sh 'echo "ROWS=$ROWS" >>"$STATE/calls"
for row in $ROWS; do echo "round 1 $row: ours $(pick 1000 1100 900) 20.0 30.0 - | theirs 1000 21.0 31.0 -"; done
echo "| test | vs | (the markdown, not read) |"'
mk fidelity-unixbench.sh 'printf "1\tshell1\t1\tours\t%s\tlpm\t0.5\t1\n" "$(pick 1200 1300 1250)"
printf "1\tshell1\t1\tub\t1000\tlpm\t0.5\t1\n"
printf "1\tdhry2reg\t1\tub\t50\tlps\t0.5\t1\n"
printf "1\tdhry2reg\t1\tours\t51\tlps\t0.5\t1\n"
printf "1\twhetstone-double\t1\tours\t1200\tMWIPS\t0.5\t1\n"
printf "1\twhetstone-double\t1\tub\t1000\tMWIPS\t0.5\t1\n"'

run() {	# run NAME [ENV...]: peers.sh on the stand-ins; $tmp/NAME.out, .err, .st
	local name=$1
	shift
	rm -f "$tmp/state"/*
	set +e
	env PATH="$tmp/bin:$PATH" STATE="$tmp/state" PEER_SCRIPTS="$tmp/s" SCRATCH="$tmp" "$@" \
		"$peers" "$tmp/p" >"$tmp/$name.out" 2>"$tmp/$name.err"
	echo $? >"$tmp/$name.st"
	set -e
}
# row NAME ROW: the table's line of ROW (text table, before the markdown), fields squeezed.
row() { sed '/^$/q' "$tmp/$1.out" | awk -v r="$2" '$1 == r' | tr -s ' '; }
expect_row() {	# expect_row NAME ROW WANT: the squeezed line is WANT
	local got
	got=$(row "$1" "$2")
	if [ "$got" = "$3" ]; then pass "$1: $2: $3"; else fail "$1: $2: want '$3', got '${got:-nothing}'"; fi
}

run all ROUNDS=3
if [ "$(cat "$tmp/all.st")" = 0 ]; then pass "a run of all groups: status 0"; else fail "a run of all groups: status $(cat "$tmp/all.st"): $(head -c 600 "$tmp/all.err")"; fi
expect_row all STREAM:add/1 "STREAM:add/1 110.0 300.0 MB/s 0.968 0.367-1.000 (3) +-10% within"
expect_row all STREAM:copy/1 "STREAM:copy/1 105.0 100.0 MB/s 1.050 1.050-1.050 (3) +-10% within"
expect_row all STREAM:triad/1 "STREAM:triad/1 112.0 100.0 MB/s 1.120 1.120-1.120 (3) +-10% OUTSIDE"
expect_row all STREAM:add/2 "STREAM:add/2 200.0 210.0 MB/s 0.952 0.952-0.952 (3) +-10% within"
expect_row all lat_mem_rd:512k "lat_mem_rd:512k 11.2 10.0 ns 1.120 1.120-1.120 (3) +-15% within"
expect_row all lat_mem_rd:16k "lat_mem_rd:16k 1.1 1.0 ns 1.050 1.050-1.050 (3) +-15% within"
expect_row all fio:disk-randread-4k-qd32 "fio:disk-randread-4k-qd32 80.0 100.0 IOPS 0.800 0.800-0.800 (2) +-15% OUTSIDE"
expect_row all fio:disk-flush:flush "fio:disk-flush:flush 1000.0 1000.0 ns 1.000 1.000-1.000 (2) +-15% within"
expect_row all sockperf:udp-rr "sockperf:udp-rr 1000.0 1000.0 tps 1.000 0.900-1.100 (3) +-15% within"
expect_row all iperf3:tcp-maerts "iperf3:tcp-maerts 1000.0 1000.0 MB/s 1.000 0.900-1.100 (3) +-15% within"
expect_row all byte-unixbench:shell1/1 "byte-unixbench:shell1/1 1250.0 1000.0 lpm 1.250 1.200-1.300 (3) +-15% OUTSIDE"
expect_row all byte-unixbench:dhry2reg/1 "byte-unixbench:dhry2reg/1 51.0 50.0 lps 1.020 1.020-1.020 (3) +-15% within"
# peer_limit by row: whetstone-double's 30 (fidelity-unixbench.md section 4), shell1's 15 above
expect_row all byte-unixbench:whetstone-double/1 "byte-unixbench:whetstone-double/1 1200.0 1000.0 MWIPS 1.200 1.200-1.200 (3) +-30% within"
if grep -qx "# FAILED: round 2: fio's script failed (status 3)" "$tmp/all.out"; then pass "a failed round is a line of the saved table (stdout), not stderr alone"; else fail "no FAILED line on stdout: $(head -5 "$tmp/all.out")"; fi
if ! grep -q '^# NO ROWS' "$tmp/all.out"; then pass "no NO ROWS line when every group gave rows"; else fail "NO ROWS: $(grep NO "$tmp/all.out")"; fi
if [ -z "$(row all netperf:tcp-rr)" ]; then pass "no netperf build: no netperf rows"; else fail "netperf rows without a netperf build"; fi
if grep -q 'no netperf' "$tmp/all.err"; then pass "no netperf build: named on stderr"; else fail "the missing netperf is not named: $(cat "$tmp/all.err")"; fi
if grep -qx 'ROWS=tcp-rr:sockperf udp-rr:sockperf tcp-stream:iperf3 tcp-maerts:iperf3' "$tmp/state/calls"; then pass "network-vs-peers is given only the rows whose tools are here"; else fail "ROWS given: $(grep ROWS "$tmp/state/calls")"; fi
if grep -q 'round 2: fio.s script failed (status 3)' "$tmp/all.err"; then pass "a peer script failing in round 2 is named with its status"; else fail "a failing round is not named: $(cat "$tmp/all.err")"; fi
if grep -qx 'ARRAY=1G' "$tmp/state/calls"; then pass "memory-vs-stream gets ARRAY=1G by default"; else fail "ARRAY given: $(grep ARRAY "$tmp/state/calls")"; fi
# Interleaved: the calls in order, round by round (each script's own round count 1, 2, 3).
order=$(awk '$2 ~ /^[0-9]+$/ { printf "%s%s ", $1, $2 }' "$tmp/state/calls")
want=""
for r in 1 2 3; do for s in memory-vs-stream.sh memory-vs-lmbench.sh disk-vs-fio.sh network-vs-peers.sh fidelity-unixbench.sh; do want+="$s$r "; done; done
if [ "$order" = "$want" ]; then pass "interleaved: every group once per round, round after round"; else fail "the calls' order: $order"; fi
md=$(grep -c '^| ' "$tmp/all.out" || true)
txt=$(sed '/^$/q' "$tmp/all.out" | grep -cE '^[A-Za-z0-9_-]+:' || true)
if [ "$md" = $((txt + 1)) ] && [ "$txt" = 15 ] && grep -q '^| STREAM:triad/1 | 112.0 | 100.0 | MB/s | 1.120 | 1.120-1.120 (3) | +-10% | \*\*OUTSIDE\*\* |$' "$tmp/all.out"; then pass "the markdown copy: the same $txt rows and a header"; else fail "markdown $md lines for $txt rows: $(cat "$tmp/all.out")"; fi
if grep -q '^# host: .*family .*model .*CPUs allowed' "$tmp/all.out"; then pass "the header names the CPU, family and model"; else fail "no host line"; fi

run fioall ROUNDS=2 FIO_FAIL_ALL=1
if [ "$(cat "$tmp/fioall.st")" = 0 ] && grep -qx "# NO ROWS: fio gave no figure in any round (stderr says why)" "$tmp/fioall.out" &&
	[ "$(grep -c '^# FAILED: round [12]: fio.s script failed (status 4)$' "$tmp/fioall.out")" = 2 ] && [ -n "$(row fioall STREAM:add/1)" ]; then
	pass "a peer failing every round: its FAILED rounds and NO ROWS in the table's header, the rest measured"
else fail "a peer failing every round: status $(cat "$tmp/fioall.st"): $(head -6 "$tmp/fioall.out")"; fi
# --table: the same table again from the run's raw lines (its stdout's "# raw:", its stderr's
# "peers: raw:", as from a run stopped early).
set +e
"$peers" --table "$tmp/all.out" >"$tmp/t1.out" 2>&1; st1=$?
"$peers" --table "$tmp/all.err" >"$tmp/t2.out" 2>&1; st2=$?
"$peers" --table "$tmp/nonesuch" >/dev/null 2>&1; st3=$?
set -e
want=$(sed -n '/^row /,/^$/p' "$tmp/all.out")
if [ "$st1" = 0 ] && [ "$(sed -n '/^row /,/^$/p' "$tmp/t1.out")" = "$want" ] && [ "$st2" = 0 ] &&
	[ "$(sed -n '/^row /,/^$/p' "$tmp/t2.out")" = "$want" ]; then pass "--table: the same table from stdout's and stderr's raw lines"
else fail "--table: status $st1/$st2: $(head -c 800 "$tmp/t1.out")"; fi
if [ "$st3" = 2 ]; then pass "--table of no file: status 2"; else fail "--table of no file: status $st3"; fi
# --table on damaged or joined logs: stdout and stderr in one file (each raw line twice), CRLF
# ends, a raw line cut short, a line of no group; and two runs' logs joined (refused).
cat "$tmp/all.out" "$tmp/all.err" >"$tmp/both.log"
sed 's/$/\r/' "$tmp/all.out" >"$tmp/crlf.log"
{ grep -v 'raw: 3 stream STREAM:copy/1 ' "$tmp/all.out"; echo "# raw: 3 stream STREAM:copy/1 105.0"; echo "# raw: 3 bogus X:y 1 1 ns"; } >"$tmp/cut.log"
{ cat "$tmp/all.out"; sed 's/raw: 1 stream STREAM:add\/1 100 /raw: 1 stream STREAM:add\/1 999 /' "$tmp/all.out" | grep 'raw: 1 stream STREAM:add/1 '; } >"$tmp/two.log"
set +e
"$peers" --table "$tmp/both.log" >"$tmp/t4.out" 2>"$tmp/t4.err"; st4=$?
"$peers" --table "$tmp/crlf.log" >"$tmp/t5.out" 2>"$tmp/t5.err"; st5=$?
"$peers" --table "$tmp/cut.log" >"$tmp/t6.out" 2>"$tmp/t6.err"; st6=$?
"$peers" --table "$tmp/two.log" >"$tmp/t7.out" 2>"$tmp/t7.err"; st7=$?
set -e
if [ "$st4" = 0 ] && [ "$(sed -n '/^row /,/^$/p' "$tmp/t4.out")" = "$want" ]; then pass "--table of stdout and stderr in one file: each round once (N 3, not 6)"
else fail "--table of both streams: status $st4: $(sed -n '/^row /,/^$/p' "$tmp/t4.out" | head -4) $(cat "$tmp/t4.err")"; fi
if [ "$st5" = 0 ] && [ "$(sed -n '/^row /,/^$/p' "$tmp/t5.out")" = "$want" ]; then pass "--table of a CRLF log: the same table"
else fail "--table of CRLF: status $st5: $(sed -n '/^row /,/^$/p' "$tmp/t5.out" | head -4 | cat -A)"; fi
if [ "$st6" = 0 ] && grep -q '2 raw line(s) of LOG not of the form' "$tmp/t6.err" && grep -q '^STREAM:copy/1 .* (2) ' "$tmp/t6.out" && ! grep -q 'X:y' "$tmp/t6.out"; then pass "--table: a raw line cut short and one of no group are named and left out, the rest paired"
else fail "--table of a cut log: status $st6: $(cat "$tmp/t6.err") $(grep copy/1 "$tmp/t6.out")"; fi
if [ "$st7" = 2 ] && grep -q 'round 1 of STREAM:add/1 has two different figures' "$tmp/t7.err"; then pass "--table of two runs joined: status 2 naming the round and row"
else fail "--table of two runs: status $st7: $(cat "$tmp/t7.err")"; fi

# A raw line with a figure that is none (1e999, which awk reads as inf; nan): that round has no
# figure for the row, named on stderr, not a ratio of 0 judged OUTSIDE.
sed 's/^# raw: 1 stream STREAM:copy\/1 105.0 100.0 /# raw: 1 stream STREAM:copy\/1 105.0 1e999 /; s/^# raw: 2 stream STREAM:copy\/1 105.0 /# raw: 2 stream STREAM:copy\/1 nan /' \
	"$tmp/all.out" >"$tmp/inf.log"
set +e
"$peers" --table "$tmp/inf.log" >"$tmp/t8.out" 2>"$tmp/t8.err"; st8=$?
set -e
if [ "$st8" = 0 ] && grep -q '^STREAM:copy/1 .* 1\.050 *1\.050-1\.050 (1) .* within$' "$tmp/t8.out" &&
	grep -q "round 1: STREAM:copy/1: the peer's figure 1e999 is not a number > 0: none that round" "$tmp/t8.err" &&
	grep -q "round 2: STREAM:copy/1: our figure nan is not a number > 0: none that round" "$tmp/t8.err"; then
	pass "--table: a figure of 1e999 or nan is none (1 round paired, within), each named"
else fail "--table of 1e999/nan: status $st8: $(grep copy/1 "$tmp/t8.out") $(cat "$tmp/t8.err")"; fi

# A peer that hangs (fio's stand-in, round 2) is stopped after PEER_TIMEOUT and named, the rest
# measured; one printing garbage (lat_mem_rd's, round 2: 1e999, abc) gives that round none.
cp -r "$tmp/s" "$tmp/s2"
{ printf '#!/usr/bin/env bash\nme=disk-vs-fio.sh\n%s\n' "$common"; cat <<'EOS'; } >"$tmp/s2/disk-vs-fio.sh"
[ "$n" != 2 ] || exec sleep 300
echo "1 disk-flush:flush ours 1000 0.5"
echo "1 disk-flush:flush theirs 1000 0.5"
EOS
{ printf '#!/usr/bin/env bash\nme=memory-vs-lmbench.sh\n%s\n' "$common"; cat <<'EOS'; } >"$tmp/s2/memory-vs-lmbench.sh"
echo "# raw: ours 1 16k $(pick 1.05 1e999 1.05)"
echo "# raw: ours 1 512k $(pick 11 abc 11)"
echo "# raw: lmbench 1 16k 1.0"
echo "# raw: lmbench 1 512k 10"
echo "garbage ### | theirs 5"
EOS
rm -f "$tmp/state"/*
set +e
t0=$SECONDS
env PATH="$tmp/bin:$PATH" STATE="$tmp/state" PEER_SCRIPTS="$tmp/s2" SCRATCH="$tmp" ROUNDS=3 PEER_TIMEOUT=2 ONLY="lmbench fio" \
	"$peers" "$tmp/p" >"$tmp/hang.out" 2>"$tmp/hang.err"; st=$?
took=$((SECONDS - t0))
set -e
if [ "$st" = 0 ] && [ "$took" -lt 30 ] && grep -qx "# FAILED: round 2: fio's script failed (status 124: stopped after PEER_TIMEOUT 2 s)" "$tmp/hang.out" &&
	[ "$(row hang fio:disk-flush:flush)" = "fio:disk-flush:flush 1000.0 1000.0 ns 1.000 1.000-1.000 (2) +-15% within" ]; then
	pass "a peer hanging in round 2: stopped after PEER_TIMEOUT 2 s ($took s in all), named in the table, 2 rounds paired"
else fail "a hanging peer: status $st after $took s: $(head -c 600 "$tmp/hang.err")"; fi
if pgrep -f "sleep 300" >/dev/null && [ "$(pgrep -f 'sleep 300' | xargs -r ps -o args= -p | grep -c '^sleep 300$')" != 0 ]; then
	fail "the hanging peer's process was left running"
else pass "the hanging peer's process stopped with it"; fi
if [ "$(row hang lat_mem_rd:16k)" = "lat_mem_rd:16k 1.1 1.0 ns 1.050 1.050-1.050 (2) +-15% within" ] &&
	[ "$(row hang lat_mem_rd:512k)" = "lat_mem_rd:512k 11.0 10.0 ns 1.100 1.100-1.100 (2) +-15% within" ] &&
	grep -q "round 2: lat_mem_rd:16k: our figure 1e999 is not a number > 0" "$tmp/hang.err" &&
	grep -q "round 2: lat_mem_rd:512k: our figure abc is not a number > 0" "$tmp/hang.err"; then
	pass "a peer printing garbage in round 2 (1e999, abc, a stray line): that round none, named, the others paired"
else fail "a garbage peer: $(sed '/^$/q' "$tmp/hang.out") $(grep lat_mem "$tmp/hang.err")"; fi
run badtimeout PEER_TIMEOUT=0
if [ "$(cat "$tmp/badtimeout.st")" = 2 ] && grep -q PEER_TIMEOUT "$tmp/badtimeout.err" && [ ! -s "$tmp/state/calls" ]; then pass "PEER_TIMEOUT=0: status 2 before any round"
else fail "PEER_TIMEOUT=0: status $(cat "$tmp/badtimeout.st")"; fi

# fio missing from PATH (a PATH of only the stand-ins and the basics, without fio).
rm "$tmp/bin/fio"
mkdir -p "$tmp/bin2"
for t in bash env awk sed sort cut tr grep cat date mktemp rm mkdir tail nproc uname printf dirname head tee wc timeout; do
	p=$(command -v "$t") && ln -sf "$p" "$tmp/bin2/$t"
done
cp "$tmp/bin/sockperf" "$tmp/bin/iperf3" "$tmp/bin2/"
rm -f "$tmp/state"/*
set +e
env -i PATH="$tmp/bin2" STATE="$tmp/state" PEER_SCRIPTS="$tmp/s" ROUNDS=1 "$peers" "$tmp/p" >"$tmp/nofio.out" 2>"$tmp/nofio.err"
st=$?
set -e
if [ "$st" = 0 ] && grep -q 'no fio on PATH' "$tmp/nofio.err" && [ -z "$(row nofio fio:disk-randread-4k-qd32)" ] && 	[ -n "$(row nofio STREAM:add/1)" ] && ! grep -q disk-vs-fio "$tmp/state/calls"; then pass "no fio: named, its rows left out, the rest measured"; else fail "no fio: status $st: $(cat "$tmp/nofio.err")"; fi

run usage0
[ "$(cat "$tmp/usage0.st")" = 0 ] || fail "stand-in run failed"
set +e
env PEER_SCRIPTS="$tmp/s" "$peers" >/dev/null 2>"$tmp/u1.err"; st1=$?
env PEER_SCRIPTS="$tmp/s" ONLY="stream bogus" "$peers" "$tmp/p" >/dev/null 2>"$tmp/u2.err"; st2=$?
env PEER_SCRIPTS="$tmp/s" ROUNDS=0 "$peers" "$tmp/p" >/dev/null 2>"$tmp/u3.err"; st3=$?
# Each refused before anything runs (no stand-in called): bad values a group script would
# refuse in every round, and ONLY's blanks, repeats and unknown names.
bad=()
for e in ROUNDS=abc ROUNDS=-1 ROUNDS=1.5 SECS=0 NTIMES=abc NTIMES=0 LAT_MAX_MB=x ARRAY=1X ARRAY=abc "ONLY= " "ONLY=fio fio" "ONLY=stream,fio" "ONLY=net *"; do
	rm -f "$tmp/state"/*
	env PATH="$tmp/bin:$PATH" STATE="$tmp/state" PEER_SCRIPTS="$tmp/s" SCRATCH="$tmp" "$e" "$peers" "$tmp/p" >/dev/null 2>"$tmp/u5.err"; st=$?
	{ [ "$st" = 2 ] && [ ! -s "$tmp/state/calls" ] && [ -s "$tmp/u5.err" ]; } || bad+=("$e: status $st, $(head -c 200 "$tmp/u5.err")")
done
mkdir -p "$tmp/empty"
env PATH="$tmp/bin2" PEER_SCRIPTS="$tmp/s" ONLY="stream lmbench" "$peers" "$tmp/empty" >/dev/null 2>"$tmp/u4.err"; st4=$?
set -e
if [ "$st1" = 2 ] && grep -q usage "$tmp/u1.err"; then pass "no PEERS_DIR: status 2, usage"; else fail "no PEERS_DIR: status $st1"; fi
if [ "$st2" = 2 ] && grep -q "unknown name 'bogus'" "$tmp/u2.err"; then pass "ONLY=bogus: status 2 naming it"; else fail "ONLY=bogus: status $st2 $(cat "$tmp/u2.err")"; fi
if [ "$st3" = 2 ] && grep -q ROUNDS "$tmp/u3.err"; then pass "ROUNDS=0: status 2"; else fail "ROUNDS=0: status $st3"; fi
if [ ${#bad[@]} = 0 ]; then pass "ROUNDS, SECS, NTIMES, LAT_MAX_MB, ARRAY and ONLY garbage: status 2 before any round"; else fail "accepted or ran: ${bad[*]}"; fi
if [ "$st4" = 1 ] && grep -q 'no STREAM' "$tmp/u4.err" && grep -q 'no peer found' "$tmp/u4.err"; then pass "no peer at all: status 1, each named"; else fail "no peer: status $st4 $(cat "$tmp/u4.err")"; fi
# fidelity-unixbench.sh --verdict's default limit is peer_limit's for each test (the one owner):
# whetstone-double 1.20 within +-30%, pipe 1.16 OUTSIDE +-15%; a PCT given judges both by it.
printf '1\twhetstone-double\t1\tours\t1200\tMWIPS\t0.5\t1200\n1\twhetstone-double\t1\tub\t1000\tMWIPS\t0.5\t1000\n1\tpipe\t1\tours\t1160\tlps\t0.5\t1160\n1\tpipe\t1\tub\t1000\tlps\t0.5\t1000\n' >"$tmp/fid.tsv"
fid=$top/docs/benchmarks/fidelity-unixbench.sh
v1=$("$fid" --verdict "$tmp/fid.tsv" 2>&1 | tr -s ' ' | cut -d' ' -f1,9,10 | tr '\n' ';')
v2=$("$fid" --verdict "$tmp/fid.tsv" 25 2>&1 | tr -s ' ' | cut -d' ' -f1,9,10 | tr '\n' ';')
if [ "$v1" = "pipe OUTSIDE +-15%;whetstone-double within +-30%;" ] && [ "$v2" = "pipe within +-25%;whetstone-double within +-25%;" ]; then
	pass "fidelity-unixbench --verdict: each test's peer_limit by default, a PCT for all"
else fail "fidelity-unixbench --verdict: '$v1' / '$v2'"; fi
finish
