#!/usr/bin/env bash
# docs/benchmarks/disk-vs-fio.sh — isobench's disk tests beside fio (Debian's fio package) on
# the same signed scratch file, interleaved (A B A B ...), as reported in
# docs/benchmarks/disk.md.
#
# usage: disk-vs-fio.sh FILE SIZE ROUNDS SECONDS
#   FILE     a file on a real filesystem (O_DIRECT; not tmpfs); signed with
#            `out/isobench --make-scratch FILE SIZE` unless it already carries the signature
#   SIZE     its size (e.g. 1G): both tools read the same span, the scratch area after the
#            header MiB (bytes 1 MiB .. SIZE)
#   ROUNDS   interleaved rounds; each round runs, per test, isobench then fio
#   SECONDS  measured seconds per run: isobench takes SECONDS samples of 1000 ms (after its
#            warm-up), fio runs time_based for SECONDS (after a 1 s ramp)
# The pairs (same bs, iodepth, direct=1; the ioengine that does what ours does):
#   disk-randread-4k-qd1   fio rw=randread bs=4k iodepth=1 ioengine=psync; median latency:
#                          ours the median of the samples' p50_ns, fio's lat_ns 50th percentile
#                          (lat_percentiles=1: submission to completion, as we time it)
#   disk-randread-4k-qd32  fio rw=randread bs=4k iodepth=32 ioengine=io_uring; IOPS
#   disk-read-1m           fio rw=read bs=1m iodepth=1 ioengine=psync; MiB/s
# Rounds on a file the host caches (a VM's disk backed by a host file): each tool re-reads
# its own fixed-seed offsets, so its first rounds fill the host's cache and read slower
# than the later ones; WARMUP=K (default 0) leaves the first K rounds out of the medians
# (docs/benchmarks/disk.md, "The qd1 gap explained").
# Out: one line per run (round, test, tool, value, load1), then per test the medians, ours / fio
# and whether that is within +-15%. Exit 2 on usage.
# Needs: out/isobench (./build.sh), fio (apt-get install fio), python3.
set -euo pipefail

[ $# -eq 4 ] || { sed -n '5,24p' "$0" >&2; exit 2; }
file=$1 size=$2 rounds=$3 secs=$4
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/out/isobench
command -v fio >/dev/null || { echo "disk-vs-fio.sh: no fio (apt-get install fio)" >&2; exit 2; }
[ -x "$bin" ] || { echo "disk-vs-fio.sh: no $bin (./build.sh)" >&2; exit 2; }
if ! head -c 16 "$file" 2>/dev/null | grep -q ISOBENCH-SCRATCH; then
	"$bin" --make-scratch "$file" "$size"
fi
bytes=$(stat -c %s "$file")
span=$(((bytes - 1048576) / 1048576 * 1048576))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ours TEST: the median over the samples of the test's value (p50_ns, IOPS or MiB/s).
ours() {
	"$bin" --disk "$file" --tests "$1" --copies 1 --sample_ms 1000 --samples "$secs" \
		--ci 100 >"$tmp/ours.log" 2>/dev/null
	sed -n "s/.* RESULT test=$1 .* median=\([0-9.]*\) .*/\1/p" "$tmp/ours.log"
}

# theirs TEST: fio's figure for the same work, from its JSON output.
theirs() {
	local rw=randread bs=4k qd=1 engine=psync what=lat
	case $1 in
		disk-randread-4k-qd32) qd=32 engine=io_uring what=iops ;;
		disk-read-1m) rw=read bs=1m what=mbps ;;
	esac
	fio --name=t --filename="$file" --readonly --direct=1 --rw="$rw" --bs="$bs" \
		--iodepth="$qd" --ioengine="$engine" --offset=1M --size="$span" --norandommap \
		--randrepeat=1 --randseed=20261201 --lat_percentiles=1 --time_based \
		--ramp_time=1 --runtime="$secs" --output-format=json >"$tmp/fio.json"
	python3 - "$tmp/fio.json" "$what" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
what = sys.argv[2]
if what == "lat":
    print(r["lat_ns"]["percentile"]["50.000000"])
elif what == "iops":
    print("%.1f" % r["iops"])
else:
    print("%.1f" % (r["bw_bytes"] / 1048576))
EOF
}

tests=(disk-randread-4k-qd1 disk-randread-4k-qd32 disk-read-1m)
echo "# $(date -u +%FT%TZ) $(uname -r), $(nproc) CPUs, $(fio --version), file $file ($bytes bytes, span $span)"
: >"$tmp/all"
for ((r = 1; r <= rounds; r++)); do
	for t in "${tests[@]}"; do
		for tool in ours theirs; do
			load=$(cut -d' ' -f1 /proc/loadavg)
			v=$("$tool" "$t")
			echo "$r $t $tool $v $load" | tee -a "$tmp/all"
		done
	done
done
python3 - "$tmp/all" "${WARMUP:-0}" <<'EOF'
import statistics, sys
vals = {}
warm = int(sys.argv[2])
if warm:
    print("# medians leave out rounds 1..%d (WARMUP): the host's cache filling" % warm)
for line in open(sys.argv[1]):
    r, t, tool, v, load = line.split()
    if int(r) <= warm:
        continue
    vals.setdefault(t, {}).setdefault(tool, []).append(float(v))
print("%-24s %14s %14s %8s  %s" % ("test", "isobench", "fio", "ours/fio", "within 15%"))
for t, d in vals.items():
    a, b = statistics.median(d["ours"]), statistics.median(d["theirs"])
    q = a / b
    print("%-24s %14.1f %14.1f %8.3f  %s" % (t, a, b, q, "yes" if abs(q - 1) <= 0.15 else "NO"))
EOF
