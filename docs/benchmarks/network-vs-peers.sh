#!/usr/bin/env bash
# docs/benchmarks/network-vs-peers.sh — the net group against the tools network engineers use,
# natively on the loopback, interleaved in one session (per round, for each row: ours, then
# theirs, back to back):
#   net-tcp-rr      vs  netperf TCP_RR            1-byte request and response (both defaults)
#   net-tcp-crr     vs  netperf TCP_CRR           1 byte each way, a new connection each
#   net-tcp-stream  vs  netperf TCP_STREAM        128 KiB sends (-m 128K; ours writes 128 KiB)
#   net-tcp-maerts  vs  netperf TCP_MAERTS        128 KiB sends and receives (-m ,128K -M ,128K:
#                                                 the remote's send size, the local receive's)
#   net-tcp-rr      vs  sockperf ping-pong --tcp  14 bytes (sockperf's minimum;
#   net-udp-rr      vs  sockperf ping-pong         ISOBENCH_NET_RR_SIZE=14 for ours)
#   net-tcp-stream  vs  iperf3 -c
#   net-tcp-maerts  vs  iperf3 -c -R
# netperf is built from its public source (github.com/HewlettPackard/netperf) outside this
# tree; its rows are left out when no netperf build is given.
#
# Usage: [ROWS="ROW ..."] docs/benchmarks/network-vs-peers.sh [ROUNDS (default 3)]
#            [SECONDS per run (default 3)] [NETPERF build dir: holds src/netperf and src/netserver]
# ROWS: only those rows, each once (names as in the table: tcp-maerts:iperf3 tcp-maerts:netperf ...;
#   an unknown or repeated name is status 2 before any peer starts).
# A netperf build dir, made once (any directory outside the repo; needs git, autoconf,
# automake, gcc, make; `make -C src` because the manual needs makeinfo):
#   git clone https://github.com/HewlettPackard/netperf DIR && cd DIR &&
#   ./autogen.sh && ./configure --enable-histogram && make -C src
# (--enable-histogram: netperf then times each transaction when asked for percentiles, -j via
# the P50_LATENCY/P99_LATENCY selectors, as ours and sockperf always do.)
# Needs: out/isobench (./build.sh), sockperf, iperf3, python3, taskset.
# Out: one line per measurement, then a markdown table for docs/benchmarks/network.md: per row
# each side's median over the rounds and ours/theirs paired by round (peer-lib.sh's
# paired_ratio: the median of each round's own ours/theirs, the two runs of a round being back
# to back; not the ratio of the two medians, which on a host drifting between rounds sets a
# slow round's figure beside a fast one's), then the lowest-highest of the rounds' ratios and
# how many rounds had both ("lo-hi (N)"), then the rounds, the CPUs, the kernel and the load
# average at the start and the end (a loaded host's table says so).
# Errors: status 2 for a bad argument or a missing tool, before anything runs; 1 when a peer
# did not start or a run gave no figure.
#
# What differs between the programs (network.md says more):
#   - ours: a transaction is timed with CLOCK_MONOTONIC around write()+read(); tps here = all
#     loops / all time of SECONDS one-second samples (the RESULT would be UnixBench's aggregate
#     of the samples instead); percentiles: the samples' median. netperf: transactions over
#     the test's length, percentiles from its histogram (-j). sockperf: rdtsc time stamps,
#     tps = ReceivedMessages / RunTime of its "valid duration" (the run minus warm-up).
#   - placement: every client on CPU 0, every server on the last CPU (taskset; netserver's
#     per-test child inherits it), so each transaction is a cross-CPU wake-up for both
#     programs, as with a real NIC between two machines.
#   - servers: ours answers an rr/stream session from a forked worker, crr and udp from a
#     worker of the session too (netserve.c); netserver forks one per test; sockperf answers
#     from one select loop; iperf3 serves one test at a time.
#   - streams: 128 KiB writes and reads on both sides; MB/s = 10^6 bytes/s for all (netperf's
#     10^6 bits/s / 8); iperf3 and netperf count the whole test, ours 1 s samples.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=peer-lib.sh
. "$here/docs/benchmarks/peer-lib.sh"
bin=$here/out/isobench
rounds=${1:-3}
secs=${2:-3}
npdir=${3:-}
case $rounds$secs in *[!0-9]*) die "ROUNDS and SECONDS are whole numbers (got '$rounds' '$secs')" ;; esac
if [ "$rounds" -lt 1 ] || [ "$secs" -lt 1 ]; then die "ROUNDS and SECONDS are 1 or more"; fi
for p in sockperf iperf3 python3 taskset; do
	command -v "$p" >/dev/null || die "$p not found (apt-get install sockperf iperf3 python3 util-linux)"
done
[ -x "$bin" ] || die "no $bin (./build.sh)"
netperf='' netserver=''
if [ -n "$npdir" ]; then
	netperf=$npdir/src/netperf netserver=$npdir/src/netserver
	if [ ! -x "$netperf" ] || [ ! -x "$netserver" ]; then
		die "$npdir holds no src/netperf and src/netserver (see the build steps at the top of $0)"
	fi
fi
# The rows (ROWS: some of them, each once), checked before any peer starts.
rows=(tcp-rr:netperf tcp-crr:netperf tcp-stream:netperf tcp-maerts:netperf tcp-rr:sockperf udp-rr:sockperf
	tcp-stream:iperf3 tcp-maerts:iperf3)
[ -n "$netperf" ] || rows=("${rows[@]:4}")
if [ -n "${ROWS:-}" ]; then
	read -r -d '' -a want <<<"$ROWS" || true	# every line, not the first
	one_each ROWS "${rows[*]}" "${want[@]}"
	rows=("${want[@]}")
fi
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
load0=$(cut -d' ' -f1-3 /proc/loadavg) t0=$(date -u +%H:%M)

# Placement, the same for every program: every server on the last CPU, every client on the
# first (one CPU: both on it).
last=$(($(nproc) - 1))
srv=(taskset -c "$last") cli=(taskset -c 0)
"${srv[@]}" "$bin" --serve --port 0 --bind 127.0.0.1 >"$tmp/peer.out" 2>/dev/null &
pids+=($!)
sp_udp=$(freeport) sp_tcp=$(freeport) ip3=$(freeport) np=$(freeport)
"${srv[@]}" sockperf server -i 127.0.0.1 -p "$sp_udp" >/dev/null 2>&1 &
pids+=($!)
"${srv[@]}" sockperf server --tcp -i 127.0.0.1 -p "$sp_tcp" >/dev/null 2>&1 &
pids+=($!)
"${srv[@]}" iperf3 -s -B 127.0.0.1 -p "$ip3" >/dev/null 2>&1 &
pids+=($!)
if [ -n "$netserver" ]; then
	"${srv[@]}" "$netserver" -D -L 127.0.0.1 -p "$np" >/dev/null 2>&1 &
	pids+=($!)
fi
sleep 1
port=$(sed -n 's/.*serve\.port=\([0-9]*\).*/\1/p' "$tmp/peer.out")
[ -n "$port" ] || die_status=1 die "our peer did not start"

# ours TEST SIZE: "tps_or_MBps p50_us p99_us p999_us": the rate over all measured samples, the
# percentiles the median of the samples' ("-" for streams).
ours() {
	ISOBENCH_NET_RR_SIZE=$2 "${cli[@]}" "$bin" --suite quick --copies 1 --sample_ms 1000 --samples "$secs" \
		--tests "$1" --peer "127.0.0.1:$port" 2>/dev/null >"$tmp/ours.log" || true
	skips "$tmp/ours.log"
	python3 - "$tmp/ours.log" <<'EOF'
import re, statistics, sys
s = [dict(re.findall(r'(\w+)=([^ ]+)', l)) for l in open(sys.argv[1]) if ' SAMPLE ' in l and ' i=' in l]
med = lambda k: statistics.median(float(x[k]) for x in s) if s and k in s[0] else None
if not s:
    print('- - - -'); sys.exit()
# the whole measured time, as the other tools count theirs: all loops / all ns (one loop =
# one transaction or 10^6 bytes), not the median of the samples
v = sum(int(x['loops']) for x in s) / (sum(int(x['ns']) for x in s) / 1e9)
lat = [med(k) for k in ('p50_ns', 'p99_ns', 'p999_ns')]
print('%.1f %s' % (v, ' '.join('-' if x is None else '%.1f' % (x / 1000) for x in lat)))
EOF
}

# sockperf [--tcp]: "tps p50_us p99_us p999_us".
sp() {
	local p=$sp_udp
	[ "${1:-}" != --tcp ] || p=$sp_tcp
	"${cli[@]}" sockperf ping-pong "$@" -i 127.0.0.1 -p "$p" -m 14 -t "$secs" --full-rtt >"$tmp/sp.out" 2>&1 || true
	python3 - "$tmp/sp.out" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
d = re.search(r'\[Valid Duration\] RunTime=([\d.]+) sec; SentMessages=\d+; ReceivedMessages=(\d+)', t)
pc = {k: float(v) for k, v in re.findall(r'percentile (\d+\.\d+) = +([\d.]+)', t)}
if not d or not pc:
    print('- - - -'); sys.exit()
print('%.1f %.1f %.1f %.1f' % (int(d.group(2)) / float(d.group(1)), pc['50.000'], pc['99.000'], pc['99.900']))
EOF
}

# iperf3 [-R]: "MBps - - -" (received bytes / s, 10^6).
ip() {
	"${cli[@]}" iperf3 -c 127.0.0.1 -p "$ip3" -t "$secs" -J "$@" >"$tmp/ip.json" 2>/dev/null || true
	python3 -c 'import json,sys
try: e = json.load(open(sys.argv[1]))["end"]; print("%.1f - - -" % (e["sum_received"]["bits_per_second"] / 8e6))
except Exception: print("- - - -")' "$tmp/ip.json"
}

# netperf TEST: "tps p50_us p99_us -" (TCP_RR, TCP_CRR: 1 byte each way) or "MBps - - -"
# (TCP_STREAM, TCP_MAERTS: 128 KiB sends).
npf() {
	local o=THROUGHPUT,P50_LATENCY,P99_LATENCY extra=()
	# netperf's omni options: -m LOCAL,REMOTE send sizes, -M REMOTE,LOCAL receive sizes; a
	# MAERTS given -m 131072 still sends 16 KiB from netserver (REMOTE_SEND_SIZE says so).
	case $1 in
	TCP_STREAM) o=THROUGHPUT extra=(-m 131072 -M 131072) ;;
	TCP_MAERTS) o=THROUGHPUT extra=(-m ",131072" -M ",131072") ;;
	esac
	"${cli[@]}" "$netperf" -H 127.0.0.1 -p "$np" -t "$1" -l "$secs" -P 0 -- -o "$o" "${extra[@]}" \
		>"$tmp/np.out" 2>&1 || true
	python3 - "$1" "$tmp/np.out" <<'EOF'
import sys
line = [l for l in open(sys.argv[2]) if l[:1].isdigit()]
if not line:
    print('- - - -'); sys.exit()
v = [float(x) for x in line[-1].strip().split(',') if x]
print('%.1f - - -' % (v[0] / 8) if sys.argv[1] in ('TCP_STREAM', 'TCP_MAERTS') else '%.1f %.1f %.1f -' % tuple(v[:3]))
EOF
}

declare -A res=()
: >"$tmp/pairs"
for ((r = 1; r <= rounds; r++)); do
	for row in "${rows[@]}"; do
		case $row in
		tcp-rr:netperf) a=$(ours net-tcp-rr 1); b=$(npf TCP_RR) ;;
		tcp-crr:netperf) a=$(ours net-tcp-crr 1); b=$(npf TCP_CRR) ;;
		tcp-stream:netperf) a=$(ours net-tcp-stream 1); b=$(npf TCP_STREAM) ;;
		tcp-maerts:netperf) a=$(ours net-tcp-maerts 1); b=$(npf TCP_MAERTS) ;;
		tcp-rr:sockperf) a=$(ours net-tcp-rr 14); b=$(sp --tcp) ;;
		udp-rr:sockperf) a=$(ours net-udp-rr 14); b=$(sp) ;;
		tcp-stream:iperf3) a=$(ours net-tcp-stream 1); b=$(ip) ;;
		tcp-maerts:iperf3) a=$(ours net-tcp-maerts 1); b=$(ip -R) ;;
		esac
		echo "round $r $row: ours $a | theirs $b"
		res[$row.ours]+="$a;"
		res[$row.theirs]+="$b;"
		echo "$row ${a%% *} ${b%% *}" >>"$tmp/pairs"	# the round's tps or MB/s, for paired_ratio
	done
done
paired_ratio <"$tmp/pairs" | paired_cells 3 >"$tmp/paired"

echo
echo "| test | vs | ours (median) | theirs (median) | ours/theirs paired | rounds: lowest-highest (N) | ours p50/p99/p99.9 us | theirs p50/p99/p99.9 us |"
echo "|---|---|---|---|---|---|---|---|"
st=0
for row in "${rows[@]}"; do
	IFS=$'\t' read -r q range < <(paired_cell "$tmp/paired" "$row")
	python3 - "$row" "${res[$row.ours]}" "${res[$row.theirs]}" "$q" "$range" <<'EOF' || st=1
import statistics, sys
row, a, b = sys.argv[1], sys.argv[2], sys.argv[3]
q, rng = sys.argv[4], sys.argv[5]  # paired_cells' MEDIAN and "LOWEST-HIGHEST (N)" for the row, "-" none
what, tool = row.split(':')
rows = lambda s: [r.split() for r in s.strip(';').split(';')]
def med(rs, i):
    v = [float(r[i]) for r in rs if r[i] != '-']
    return statistics.median(v) if v else None
A, B = rows(a), rows(b)
va, vb = med(A, 0), med(B, 0)
unit = 'MB/s' if 'stream' in what or 'maerts' in what else 'tps'
lat = lambda R: '/'.join('-' if med(R, i) is None else '%.1f' % med(R, i) for i in (1, 2, 3))
f = lambda v: '-' if v is None else '%.0f %s' % (v, unit)
print('| %s | %s | %s | %s | %s | %s | %s | %s |' % (what, tool, f(va), f(vb), q, rng, lat(A), lat(B)))
sys.exit(0 if va and vb and q != '-' else 1)
EOF
done
echo
echo "($rounds rounds x $secs s, interleaved, $t0-$(date -u +%H:%M) UTC; $(nproc) of $(nproc --all) CPUs allowed, $(uname -r);" \
	"load average at the start $load0, at the end $(cut -d' ' -f1-3 /proc/loadavg))"
[ "$st" = 0 ] || die_status=1 die "a row has no figure (a run failed: its lines above)"
