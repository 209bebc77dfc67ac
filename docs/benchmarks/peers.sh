#!/usr/bin/env bash
# docs/benchmarks/peers.sh — one command checks this host against every peer tool: the five
# peer scripts beside it, each run for one round at a time and the five taken in turn, ROUNDS
# times, so that a host drifting during the session moves both sides of every row alike; then
# one table: row, ours, theirs (each side's median over the rounds), ours/theirs paired by
# round (peer-lib.sh's paired_ratio: the median of the rounds' own ratios, with their
# lowest-highest and the rounds paired), the row's limit (peer-lib.sh's peer_limit, the one
# owner of the limits) and within or OUTSIDE it, judged unrounded; then the same table in
# markdown, for docs/benchmarks/fidelity-hosts.md.
#
# Usage: [ROUNDS=3] [SECS=2] [ONLY="stream lmbench fio net unixbench"] [ARRAY=1G]
#        [NTIMES=10] [LAT_MAX_MB=16] [SCRATCH=DIR] [PEER_TIMEOUT=1800]
#        docs/benchmarks/peers.sh PEERS_DIR
#        docs/benchmarks/peers.sh --table LOG    the table again from a run's "raw:" lines (its
#                                                stderr, or the stdout of a finished run)
# In:  PEERS_DIR, the peers' trees, made outside this repository (docs/benchmarks/
#      fidelity-hosts.md says how); each missing one is named on stderr and its rows left out:
#        PEERS_DIR/STREAM          a clone of github.com/jeffhammond/STREAM (memory-vs-stream.sh
#                                  builds stream.c with our compiler and flags)
#        PEERS_DIR/lmbench         a clone of github.com/intel/lmbench (memory-vs-lmbench.sh
#                                  builds lat_mem_rd the same way)
#        PEERS_DIR/byte-unixbench  built with its own make (UnixBench/pgms/looper)
#        PEERS_DIR/netperf         built (src/netperf, src/netserver)
#      fio, sockperf and iperf3 from Debian, on PATH (a missing one: its rows are left out).
#      ROUNDS (default 3) rounds; SECS (default 2) seconds per measured run of fio, the network
#      rows and byte-unixbench; ONLY, only those groups; ARRAY, STREAM's array (memory-vs-stream's
#      ARRAY; default 1G, which the runner raises to 4x this host's last-level cache when that is
#      more, and STREAM gets the runner's size); NTIMES, STREAM's passes (its -DNTIMES; default 10,
#      half its own 20); LAT_MAX_MB, lat_mem_rd's largest range (its points up to it: 16k, 512k,
#      16m by default; 256 adds 256m, and lat_mem_rd walks every range up to it: a round took
#      328 s on a loaded 2-CPU host, fidelity-hosts.md). The defaults are what fit three rounds
#      of everything in 20 minutes on a 2-CPU host; SCRATCH, a directory on a real file
#      system for fio's 1 GiB scratch file (default: a temporary directory under /var/tmp).
#      PEER_TIMEOUT (default 1800) stops one group's script after that many seconds of a round
#      (a peer that hangs: that round FAILED with status 124, the session goes on).
#      A figure that is not a number > 0 (nan, abc, -5, 1e999: peer-lib.sh's peer_num) is named
#      on stderr and that round has none for its row, in a run and in --table alike.
#      PEER_SCRIPTS=DIR runs the peer scripts from DIR instead of this one's (tests/test-peers.sh:
#      stand-ins printing crafted rounds).
# Out: on stderr, per round and group, what runs, how long it took and its rows as they come
#      ("peers: raw: ROUND GROUP ROW OURS THEIRS UNIT"); on stdout, the machine (CPU model,
#      family and model, kernel, CPUs, load at the start and the end, date), the table, then
#      its markdown copy, then the raw lines ("# raw: ..."). --table LOG prints the table and
#      its markdown from LOG's raw lines alone (a run stopped early: the rounds it finished;
#      stdout and stderr in one file: each line once; CRLF ends; a raw line cut short or of no
#      group is named and left out). A group script's failures are also lines of stdout
#      ("# FAILED: round R: GROUP's script failed (status S)", and "# NO ROWS: GROUP ..." for
#      a group that gave no figure in any round), so a saved table says what it lacks. Rows: "stream KERNEL/COPIES" (ours: the RESULT max;
#      STREAM's Best Rate, MB/s), "lat_mem_rd POINT" (ns per load, ours 4k pages), "fio TEST"
#      (disk-vs-fio's value: ns, IOPS or MiB/s), "net ROW:PEER" (tps or MB/s), "unixbench
#      TEST/1" (byte-unixbench's units, wall clock, one copy).
# Errors: status 2 on a usage error (PEERS_DIR not a directory, an ONLY name unknown or given
#      twice, ROUNDS, SECS, NTIMES, LAT_MAX_MB or PEER_TIMEOUT not a whole number >= 1, an ARRAY the runner
#      refuses; all before anything runs, not a failure in every round), with no out/isobench,
#      or for --table on a LOG holding one round of a row twice with different figures (two
#      runs' logs joined: not pairable); a peer script
#      that fails in a round is named with its status and log tail, and that round's rows of
#      it are missing (the table says how many rounds were paired); status 1 when no row got
#      a figure from both sides. Rows OUTSIDE their limit are findings, not errors: status 0.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=peer-lib.sh
. "$here/peer-lib.sh"	# die (status 2), one_each, paired_ratio, peer_limit
scripts=${PEER_SCRIPTS:-$here}
rounds=${ROUNDS:-3}
secs=${SECS:-2}
read -ra groups <<<"${ONLY:-stream lmbench fio net unixbench}"
array=${ARRAY:-1G}
latmax=${LAT_MAX_MB:-16}
ntimes=${NTIMES:-10}
ptimeout=${PEER_TIMEOUT:-1800}
table_only=
if [ "${1:-}" = --table ]; then
	if [ $# -ne 2 ] || ! [ -f "$2" ] || ! [ -r "$2" ]; then die "--table LOG: LOG must be a readable file (a run's output)"; fi
	table_only=$2
	set -- /
fi
[ $# -eq 1 ] || die "usage: docs/benchmarks/peers.sh PEERS_DIR (the header of this file says more)"
[ -d "$1" ] || die "PEERS_DIR $1 is not a directory"
peers=$(cd "$1" && pwd)
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a whole number >= 1, not '$rounds'"
[[ $secs =~ ^[1-9][0-9]*$ ]] || die "SECS must be a whole number >= 1, not '$secs'"
[[ $latmax =~ ^[1-9][0-9]*$ ]] || die "LAT_MAX_MB must be a whole number >= 1, not '$latmax'"
[[ $ntimes =~ ^[1-9][0-9]*$ ]] || die "NTIMES must be a whole number >= 1, not '$ntimes'"
[[ $ptimeout =~ ^[1-9][0-9]*$ ]] || die "PEER_TIMEOUT must be a whole number of seconds >= 1, not '$ptimeout'"
# ARRAY as memory-vs-stream.sh checks it (the runner's own size parser and range), before any
# round rather than in every one; without out/isobench (stand-ins) the size's form alone.
if [ -x "$top/out/isobench" ]; then "$top/out/isobench" --mem.array "$array" --list >/dev/null 2>&1
else [[ $array =~ ^[1-9][0-9]*[KMGT]?$ ]]; fi || die "ARRAY must be a size such as 512M or 1G, not '$array'"
one_each ONLY "stream lmbench fio net unixbench" "${groups[@]}"
[ -x "$top/out/isobench" ] || [ -n "${PEER_SCRIPTS:-}${table_only}" ] || die "no out/isobench: ./build.sh first"

# have GROUP: whether its peer is here; names what is missing on stderr. For net, the rows
# whose tools are here (network-vs-peers.sh's ROW names) in $net_rows.
net_rows=
have() {
	case $1 in
	stream) [ -e "$peers/STREAM/stream.c" ] || { echo "peers: no STREAM at $peers/STREAM (stream.c): its rows are left out" >&2; return 1; } ;;
	lmbench) [ -e "$peers/lmbench/src/lat_mem_rd.c" ] || { echo "peers: no lmbench at $peers/lmbench (src/lat_mem_rd.c): its rows are left out" >&2; return 1; } ;;
	unixbench) [ -x "$peers/byte-unixbench/UnixBench/pgms/looper" ] || { echo "peers: no built byte-unixbench at $peers/byte-unixbench (UnixBench/pgms/looper): its rows are left out" >&2; return 1; } ;;
	fio) command -v fio >/dev/null || { echo "peers: no fio on PATH: its rows are left out" >&2; return 1; } ;;
	net)
		local miss=()
		[ -x "$peers/netperf/src/netperf" ] && [ -x "$peers/netperf/src/netserver" ] &&
			net_rows+=" tcp-rr:netperf tcp-crr:netperf tcp-stream:netperf tcp-maerts:netperf" || miss+=("netperf ($peers/netperf/src/netperf, netserver)")
		if command -v sockperf >/dev/null && command -v iperf3 >/dev/null; then
			net_rows+=" tcp-rr:sockperf udp-rr:sockperf tcp-stream:iperf3 tcp-maerts:iperf3"
		else miss+=("sockperf and iperf3 (network-vs-peers.sh needs both)"); fi
		[ ${#miss[@]} -eq 0 ] || echo "peers: no ${miss[*]}: those rows are left out" >&2
		[ -n "$net_rows" ] ;;
	esac
}
run=()
if [ -z "$table_only" ]; then for g in "${groups[@]}"; do if have "$g"; then run+=("$g"); fi; done; fi
[ ${#run[@]} -gt 0 ] || [ -n "$table_only" ] || die_status=1 die "no peer found under $peers (above: what each group looks for)"

work=$(mktemp -d)
scratch=
trap 'rm -rf "$work" ${scratch:+"$scratch"}' EXIT
if [[ " ${run[*]:-} " == *" fio "* ]]; then
	scratch=$(mktemp -d -p "${SCRATCH:-/var/tmp}" isobench-peers.XXXXXX) || die "cannot make a directory under ${SCRATCH:-/var/tmp} for fio's scratch file"
fi

# group_lines GROUP LOG: the script's output for one round as "ROW OURS THEIRS UNIT", ROW named
# PEER:WHAT. Each parser reads the lines its script documents (memory-vs-stream's and
# memory-vs-lmbench's "# raw:", disk-vs-fio's per-run lines, network-vs-peers' "round R ROW:
# ours ... | theirs ...", fidelity-unixbench's TSV); a figure missing on one side is "-"
# (paired_ratio leaves that round out).
group_lines() {
	case $1 in
	stream) awk '$1 == "#" && $2 == "raw:" && ($3 == "ours" || $3 == "stream") {
			k = "STREAM:" $6 "/" $5; if ($3 == "ours") o[k] = $7; else t[k] = $7; seen[k] = 1 }
		END { for (k in seen) print k, (k in o ? o[k] : "-"), (k in t ? t[k] : "-"), "MB/s" }' "$2" | sort -t/ -k2,2n -k1,1 ;;
	lmbench) awk '$1 == "#" && $2 == "raw:" && ($3 == "ours" || $3 == "lmbench") {
			k = "lat_mem_rd:" $5; if ($3 == "ours") o[k] = $6; else t[k] = $6; seen[k] = 1 }
		END { for (k in seen) print k, (k in o ? o[k] : "-"), (k in t ? t[k] : "-"), "ns" }' "$2" | sort -V ;;
	fio) awk 'NF == 5 && $1 ~ /^[0-9]+$/ && ($3 == "ours" || $3 == "theirs") {
			k = "fio:" $2; if ($3 == "ours") o[k] = $4; else t[k] = $4; seen[k] = 1; if (!(k in at)) at[k] = NR }
		END { for (k in seen) { u = k ~ /qd1|flush/ ? "ns" : k ~ /qd32/ ? "IOPS" : "MiB/s"
			print at[k], k, (k in o ? o[k] : "-"), (k in t ? t[k] : "-"), u } }' "$2" | sort -n | cut -d' ' -f2- ;;
	net) awk '$1 == "round" && $4 == "ours" { row = $3; sub(/:$/, "", row); split(row, w, ":")
			split($0, s, /[|] theirs /); split(s[2], b, " "); u = row ~ /stream|maerts/ ? "MB/s" : "tps"
			print w[2] ":" w[1], $5, (b[1] == "" ? "-" : b[1]), u }' "$2" ;;
	unixbench) awk -F'\t' 'NF == 8 && $1 ~ /^[0-9]+$/ && ($4 == "ours" || $4 == "ub") {
			k = "byte-unixbench:" $2 "/" $3; if ($4 == "ours") o[k] = $5; else t[k] = $5; u[k] = $6; seen[k] = 1
			if (!(k in at)) at[k] = NR }
		END { for (k in seen) print at[k], k, (k in o ? o[k] : "-"), (k in t ? t[k] : "-"), u[k] }' "$2" | sort -n | cut -d' ' -f2- ;;
	esac
}

# figures: "ROUND GROUP ROW OURS THEIRS UNIT" lines (stdin) with each figure that is not one
# (peer-lib.sh's peer_num: nan, abc, -5, 1e999) made "-" and named on stderr, so that a peer
# printing garbage gives that round no figure, not a ratio of 0 or inf judged OUTSIDE; a line
# whose ROW names no WHAT after its PEER: (a raw line cut short) is named and left out.
figures() {
	awk "$peer_num"'
	$3 !~ /:./ { printf "peers: round %s: %s: a row without a name (%s): left out\n", $1, $2, $0 > "/dev/stderr"; next }
	{ for (f = 4; f <= 5; f++) if ($f != "-" && !num($f)) {
		who = f == 4 ? "our" : "the peer'"'"'s"
		printf "peers: round %s: %s: %s figure %s is not a number > 0: none that round\n", $1, $3, who, $f > "/dev/stderr"
		$f = "-" } }
	{ print }'
}

# run_group GROUP LOG: one round of GROUP's script, its output in LOG.
run_group() {
	case $1 in
	stream) ARRAY=$array NTIMES=$ntimes "${stop_after[@]}" "$scripts/memory-vs-stream.sh" 1 "$peers/STREAM" ;;
	lmbench) "${stop_after[@]}" "$scripts/memory-vs-lmbench.sh" 1 "$latmax" "$peers/lmbench" ;;
	fio) "${stop_after[@]}" "$scripts/disk-vs-fio.sh" "$scratch/fio.scratch" 1G 1 "$secs" ;;
	net) ROWS="${net_rows# }" "${stop_after[@]}" "$scripts/network-vs-peers.sh" 1 "$secs" "$peers/netperf" ;;
	unixbench) "${stop_after[@]}" "$scripts/fidelity-unixbench.sh" "$peers/byte-unixbench/UnixBench" "$top/out" 1 "$secs" 1 ;;
	esac >"$2" 2>&1
}
# A peer that hangs must not hang the session: each script's round is stopped after
# PEER_TIMEOUT s (GNU timeout: TERM to its process group, KILL 10 s later), status 124.
stop_after=(timeout -k 10 "$ptimeout")

load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date -u +%FT%TZ)
: >"$work/all"
: >"$work/failed"
if [ -n "$table_only" ]; then
	# A log may hold both streams (`>host.txt 2>&1`: each raw line twice) or CRLF ends: one
	# line per round and row is kept; two different figures for one round and row (two runs'
	# logs joined) cannot be paired and are refused; a raw line cut short is named.
	tr -d '\r' <"$table_only" | sed -nE 's/^(# |peers: )raw: (.*)$/\2/p' >"$work/rawall"
	awk 'NF != 6 || $1 !~ /^[1-9][0-9]*$/ || $2 !~ /^(stream|lmbench|fio|net|unixbench)$/ { bad++; next } { print }
		END { if (bad) printf "peers: %d raw line(s) of LOG not of the form ROUND GROUP ROW OURS THEIRS UNIT (cut short?): left out\n", bad > "/dev/stderr" }' \
		"$work/rawall" | awk '!seen[$0]++' | figures >"$work/all"
	dup=$(awk '++n[$1 " " $3] == 2 { print "round " $1 " of " $3; exit }' "$work/all")
	[ -z "$dup" ] || die "--table LOG: $dup has two different figures (two runs' logs joined?): which pairs with which is not known; give each run's log alone"
	rounds=0
fi
for ((r = 1; r <= rounds; r++)); do
	for g in "${run[@]}"; do
		s=$(date +%s)
		echo "peers: round $r of $rounds: $g ..." >&2
		if run_group "$g" "$work/$g.log"; then st=0; else st=$?; fi
		if [ "$st" != 0 ]; then
			why="status $st"
			[ "$st" != 124 ] && [ "$st" != 137 ] || why="status $st: stopped after PEER_TIMEOUT $ptimeout s"
			echo "round $r: $g's script failed ($why)" >>"$work/failed"
			echo "peers: round $r: $g's script failed ($why); its last lines:" >&2
			tail -n 5 "$work/$g.log" | sed 's/^/peers:   /' >&2
		fi
		group_lines "$g" "$work/$g.log" | sed "s/^/$r $g /" | figures | tee -a "$work/all" | sed 's/^/peers: raw: /' >&2
		echo "peers: round $r: $g took $(($(date +%s) - s)) s (load $(cut -d' ' -f1 /proc/loadavg))" >&2
	done
done
load1=$(cut -d' ' -f1-3 /proc/loadavg)

# The table's lines, tab-separated: row, ours, theirs, unit, ratio, lo-hi (N), limit, verdict.
# $work/all: "ROUND GROUP ROW OURS THEIRS UNIT".
awk '{ print $3, $4, $5 }' "$work/all" | paired_ratio >"$work/ratios"
# side ROW FIELD: the median of FIELD (4 ours, 5 theirs) over the rounds that gave one, 1 decimal.
side() {
	awk -v k="$1" -v f="$2" '$3 == k && $f != "-" { print $f }' "$work/all" | sort -g |
		awk '{ a[NR] = $1 } END { if (!NR) print "-"; else printf "%.1f\n", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
: >"$work/table"
while read -r row q lo hi n; do
	g=$(awk -v k="$row" '$3 == k { print $2; exit }' "$work/all")
	u=$(awk -v k="$row" '$3 == k { print $6; exit }' "$work/all")
	t=${row#*:}
	lim=$(peer_limit "$g" "${t%%/*}")
	if [ "$n" = 0 ]; then v="no figure" rq=- rg=-
	else
		v=$(awk -v q="$q" -v l="$lim" 'BEGIN { print (q >= 1 - l / 100 && q <= 1 + l / 100) ? "within" : "OUTSIDE" }')
		rq=$(printf '%.3f' "$q") rg=$(printf '%.3f-%.3f (%d)' "$lo" "$hi" "$n")
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t+-%s%%\t%s\n' "$row" "$(side "$row" 4)" "$(side "$row" 5)" "$u" "$rq" "$rg" "$lim" "$v" >>"$work/table"
done <"$work/ratios"

if [ -n "$table_only" ]; then
	echo "# the table of $table_only's raw lines ($(wc -l <"$work/all") rows of rounds)"
else
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
fam=$(grep -m1 '^cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')
mdl=$(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')
echo "# host: ${cpu:-unknown CPU} (family ${fam:--}, model ${mdl:--}), $(nproc) of $(nproc --all) CPUs allowed, $(uname -r)"
echo "# $t0 to $(date -u +%FT%TZ), $rounds rounds of: ${run[*]} (SECS $secs, ARRAY $array, NTIMES $ntimes, LAT_MAX_MB $latmax); load $load0 at the start, $load1 at the end"
# What failed, in the saved table itself, not on stderr alone: a group failing every round
# has no row below to say so.
sed 's/^/# FAILED: /' "$work/failed"
for g in "${run[@]}"; do
	awk -v g="$g" '$2 == g { f = 1 } END { exit !f }' "$work/all" || echo "# NO ROWS: $g gave no figure in any round (stderr says why)"
done
fi
printf '%-34s %12s %12s %-6s %11s %22s %7s %s\n' row ours theirs unit ours/theirs "rounds lo-hi (N)" limit verdict
awk -F'\t' '{ printf "%-34s %12s %12s %-6s %11s %22s %7s %s\n", $1, $2, $3, $4, $5, $6, $7, $8 }' "$work/table"
echo
echo "| row | ours | theirs | unit | ours/theirs | rounds lo-hi (N) | limit | verdict |"
echo "|---|---|---|---|---|---|---|---|"
awk -F'\t' '{ v = $8 == "OUTSIDE" ? "**OUTSIDE**" : $8; printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, v }' "$work/table"
[ -n "$table_only" ] || sed 's/^/# raw: /' "$work/all"
awk -F'\t' '$5 != "-" { ok = 1 } END { exit !ok }' "$work/table" || die_status=1 die "no row got a figure from both sides (above: why)"
