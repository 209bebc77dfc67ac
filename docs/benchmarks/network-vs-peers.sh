#!/usr/bin/env bash
# docs/benchmarks/network-vs-peers.sh — the net group against Debian's network tools, natively
# on the loopback, interleaved in one session (ours, theirs, ours, theirs ... per round):
#   net-tcp-rr / net-udp-rr   vs  sockperf ping-pong (--tcp / UDP), the same message size
#                                 (sockperf's minimum, 14 bytes: ISOBENCH_NET_RR_SIZE=14)
#   net-tcp-stream / -maerts  vs  iperf3 -c (and -R)
# Prints one line per measurement and a markdown table of medians and ratios (ours/theirs)
# for docs/benchmarks/network.md.
#
# Usage: docs/benchmarks/network-vs-peers.sh [ROUNDS (default 3)] [SECONDS per run (default 3)]
# Needs: out/isobench (./build.sh), sockperf, iperf3 (apt-get install sockperf iperf3).
# What differs between the programs (network.md says more):
#   - ours: a transaction's latency is timed with CLOCK_MONOTONIC around write()+read(); tps
#     here = all loops / all time of SECONDS one-second samples (the RESULT would be
#     UnixBench's aggregate of the samples instead); percentiles: the samples' median. sockperf: rdtsc
#     time stamps, avg over its "valid duration" (the run minus warm-up); tps here =
#     ReceivedMessages / RunTime of that duration.
#   - placement: every client on CPU 0, every server on the last CPU (taskset), so each
#     transaction is a cross-CPU wake-up for both programs, as with a real NIC between two
#     machines (unpinned, the scheduler's choice varies run to run and swamps the ratio).
#   - ours blocks in read(); sockperf's client waits in select() (10 ms timeout) before
#     recvfrom(). Both servers echo from one process (ours: a forked session child for TCP,
#     the poll loop for UDP; sockperf: its select loop).
#   - stream: both write and read 128 KiB blocks (ours: 10^6 bytes per loop in 128 KiB
#     writes); MB/s = 10^6 bytes/s for both; iperf3 counts the whole test, ours 1 s samples.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")/../.." && pwd)
bin=$here/out/isobench
rounds=${1:-3}
secs=${2:-3}
size=14
for p in sockperf iperf3 python3 taskset; do
	command -v "$p" >/dev/null || { echo "$0: $p not found (apt-get install sockperf iperf3)" >&2; exit 2; }
done
[ -x "$bin" ] || { echo "$0: no $bin (./build.sh)" >&2; exit 2; }
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Placement, the same for both programs: every server on the last CPU, every client on the
# first (fewer scheduler surprises on a loaded machine; one CPU: both on it).
last=$(($(nproc) - 1))
srv=(taskset -c "$last") cli=(taskset -c 0)
"${srv[@]}" "$bin" --serve --port 0 --bind 127.0.0.1 >"$tmp/peer.out" 2>/dev/null &
pids+=($!)
sp_udp=$(freeport) sp_tcp=$(freeport) ip3=$(freeport)
"${srv[@]}" sockperf server -i 127.0.0.1 -p "$sp_udp" >/dev/null 2>&1 &
pids+=($!)
"${srv[@]}" sockperf server --tcp -i 127.0.0.1 -p "$sp_tcp" >/dev/null 2>&1 &
pids+=($!)
"${srv[@]}" iperf3 -s -p "$ip3" >/dev/null 2>&1 &
pids+=($!)
sleep 1
port=$(sed -n 's/.*serve\.port=\([0-9]*\).*/\1/p' "$tmp/peer.out")
[ -n "$port" ] || { echo "$0: our peer did not start" >&2; exit 1; }

# ours TEST: "tps_or_MBps p50_us p99_us p999_us": the rate over all measured samples, the
# percentiles the median of the samples' ("-" for streams).
ours() {
	ISOBENCH_NET_RR_SIZE=$size "${cli[@]}" "$bin" --suite quick --copies 1 --sample_ms 1000 --samples "$secs" \
		--tests "$1" --peer "127.0.0.1:$port" 2>/dev/null >"$tmp/ours.log"
	python3 - "$tmp/ours.log" <<'EOF'
import re, statistics, sys
s = [dict(re.findall(r'(\w+)=([^ ]+)', l)) for l in open(sys.argv[1]) if ' SAMPLE ' in l and ' i=' in l]
med = lambda k: statistics.median(float(x[k]) for x in s) if s and k in s[0] else None
if not s:
    print('- - - -'); sys.exit()
# the whole measured time, as sockperf and iperf3 count theirs: all loops / all ns (one
# loop = one transaction or 10^6 bytes), not the median of the samples
v = sum(int(x['loops']) for x in s) / (sum(int(x['ns']) for x in s) / 1e9)
lat = [med(k) for k in ('p50_ns', 'p99_ns', 'p999_ns')]
print('%.1f %s' % (v, ' '.join('-' if x is None else '%.1f' % (x / 1000) for x in lat)))
EOF
}

# sockperf [--tcp]: "tps p50_us p99_us p999_us".
sp() {
	local p=$sp_udp
	[ "${1:-}" != --tcp ] || p=$sp_tcp
	"${cli[@]}" sockperf ping-pong "$@" -i 127.0.0.1 -p "$p" -m "$size" -t "$secs" --full-rtt 2>&1 >"$tmp/sp.out" |
		cat >>"$tmp/sp.out"
	python3 - "$tmp/sp.out" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
d = re.search(r'\[Valid Duration\] RunTime=([\d.]+) sec; SentMessages=\d+; ReceivedMessages=(\d+)', t)
pc = {k: float(v) for k, v in re.findall(r'percentile (\d+\.\d+) = +([\d.]+)', t)}
print('%.1f %.1f %.1f %.1f' % (int(d.group(2)) / float(d.group(1)), pc['50.000'], pc['99.000'], pc['99.900']))
EOF
}

# iperf3 [-R]: "MBps - - -" (received bytes / s, 10^6).
ip() {
	"${cli[@]}" iperf3 -c 127.0.0.1 -p "$ip3" -t "$secs" -J "$@" >"$tmp/ip.json"
	python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["end"]; print("%.1f - - -" % (e["sum_received"]["bits_per_second"] / 8e6))' "$tmp/ip.json"
}

declare -A res=()
for ((r = 1; r <= rounds; r++)); do
	for what in tcp-rr udp-rr tcp-stream tcp-maerts; do
		case $what in
		tcp-rr) a=$(ours net-tcp-rr); b=$(sp --tcp) ;;
		udp-rr) a=$(ours net-udp-rr); b=$(sp) ;;
		tcp-stream) a=$(ours net-tcp-stream); b=$(ip) ;;
		tcp-maerts) a=$(ours net-tcp-maerts); b=$(ip -R) ;;
		esac
		echo "round $r $what: ours $a | theirs $b"
		res[$what.ours]+="$a;"
		res[$what.theirs]+="$b;"
	done
done

echo
echo "| test | ours (median) | theirs (median) | ours/theirs | ours p50/p99/p99.9 us | theirs p50/p99/p99.9 us |"
echo "|---|---|---|---|---|---|"
for what in tcp-rr udp-rr tcp-stream tcp-maerts; do
	python3 - "$what" "${res[$what.ours]}" "${res[$what.theirs]}" <<'EOF'
import statistics, sys
what, a, b = sys.argv[1], sys.argv[2], sys.argv[3]
rows = lambda s: [r.split() for r in s.strip(';').split(';')]
def med(rs, i):
    v = [float(r[i]) for r in rs if r[i] != '-']
    return statistics.median(v) if v else None
A, B = rows(a), rows(b)
va, vb = med(A, 0), med(B, 0)
unit = 'tps' if what.endswith('rr') else 'MB/s'
lat = lambda R: '/'.join('-' if med(R, i) is None else '%.1f' % med(R, i) for i in (1, 2, 3))
print('| %s | %.0f %s | %.0f %s | %.2f | %s | %s |' % (what, va, unit, vb, unit, va / vb, lat(A), lat(B)))
EOF
done
echo
echo "($rounds rounds x $secs s, interleaved; $(nproc) CPUs, $(uname -r); load: $(cut -d' ' -f1-3 /proc/loadavg))"
