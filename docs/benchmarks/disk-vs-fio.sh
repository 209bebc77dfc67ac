#!/usr/bin/env bash
# docs/benchmarks/disk-vs-fio.sh — isobench's disk tests beside fio (Debian's fio package) on
# the same signed scratch file, interleaved (A B A B ...), as reported in
# docs/benchmarks/disk.md.
#
# usage: disk-vs-fio.sh FILE SIZE ROUNDS SECONDS
#        disk-vs-fio.sh --summary LINES   (the table again from a run's printed lines)
#   FILE     a file on a real filesystem (O_DIRECT; not tmpfs), or a block device of yours
#            (a loop device); signed with `out/isobench --make-scratch FILE SIZE` unless it
#            already carries the signature
#   SIZE     its size (e.g. 1G): both tools use the same span, the scratch area after the
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
#   disk-write-1m          fio rw=write bs=1m iodepth=1 ioengine=psync; MiB/s
#   disk-randwrite-4k-qd1  fio rw=randwrite bs=4k iodepth=1 ioengine=psync; median latency
#   disk-flush             fio rw=randwrite bs=4k ioengine=psync fdatasync=1: two rows,
#                          disk-flush:flush (ours: the median of the samples' flush_p50_ns;
#                          fio: its sync lat_ns 50th percentile) and disk-flush:write (ours
#                          write_p50_ns, fio the write lat_ns 50th percentile of that job)
# Both write the same random, scrambled buffers (fio's defaults: a random fill,
# scramble_buffers=1; ours payload/bench/disk.c scramble()), only into the scratch area.
# Rounds on a file the host caches (a VM's disk backed by a host file): each tool re-reads
# its own fixed-seed offsets, so its first rounds fill the host's cache and read slower
# than the later ones; WARMUP=K (default 0) leaves the first K rounds out of the medians
# (docs/benchmarks/disk.md, "The qd1 gap explained"). TESTS="T ..." runs only those tests.
# Reads served by a cache under this machine (the host's page cache, for a VM disk backed by a
# host file) are the cache's figures, not the disk's: when a read test of either tool runs
# more than CACHE_X (1.5) times faster in the later rounds (their median) than in round 1, a
# "WARNING: ... cache" line names it (WARMUP does not hide it). A file cached before round 1
# draws none: measure a fresh file, or a span larger than the host's memory.
# Out: one line per run (round, test, tool, value, load1), then per test each tool's median over
# the rounds, ours / fio paired by round (peer-lib.sh's paired_ratio: the median of each
# round's own ours / fio, the two runs of a round being back to back; not the ratio of the two
# medians, which on a host drifting between rounds sets a slow round's figure beside a fast
# one's; 3 decimals), whether that is within +-15% (peer-lib.sh's peer_limit fio; judged unrounded: 1.1504 is not, though
# it shows as 1.150), and the lowest-highest of the rounds' ratios with N the rounds holding
# both ("lo-hi (N)"; a row with no such round says "no round gave a figure above 0 from both
# tools"), then any cache WARNING. --summary LINES prints the same table from LINES (a file
# holding those per-run lines; other lines are skipped).
# Exit: 0 with the table; 2 on a usage error (a missing fio or out/isobench, a WARMUP that is
# not a whole number >= 0, a CACHE_X that is not a number > 0, a TESTS that is blank or
# names a test not among the pairs above or one twice), for a LINES that is not a readable
# regular text file (a directory, a binary file), or when a round of a test appears
# twice for one tool (two runs' lines joined: which figure pairs with the other tool's is not
# known; the message names the round and test); 1 when LINES, or a run, holds no per-run line
# after WARMUP's rounds (an empty or garbled file). A tool that fails ends a run with its status.
# Needs: out/isobench (./build.sh), fio (apt-get install fio), python3.
set -euo pipefail

# shellcheck source=peer-lib.sh
. "$(dirname "$0")/peer-lib.sh"	# paired_ratio; one_each; die (status 2)

# WARMUP and CACHE_X, checked before anything runs (the table's Python took them as given and
# died of a traceback on WARMUP=x).
warm=${WARMUP:-0} cache_x=${CACHE_X:-1.5}
[[ $warm =~ ^[0-9]+$ ]] || die "WARMUP must be a whole number >= 0 (the rounds left out), not '$warm'"
if ! [[ $cache_x =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)$ ]] || ! awk -v x="$cache_x" 'BEGIN { exit !(x > 0) }'; then
	die "CACHE_X must be a number > 0 (how many times faster), not '$cache_x'"
fi

# summary LINES: the medians, ours / fio paired by round, the cache check, from per-run lines
# "ROUND ROW TOOL VALUE LOAD1" (TOOL ours or theirs, VALUE a number); WARMUP and CACHE_X as
# checked above.
# One reading of the lines (summary_py), twice: "pairs" gives paired_ratio its "ROW OURS FIO"
# lines (one per round after WARMUP), "table" prints the table with what paired_ratio said.
# A round of a row given twice by one tool (two runs' files joined) stops it, status 2, before
# the table: which of the two figures pairs with the other tool's is not known.
summary() {
	local pairs
	pairs=$(summary_py pairs "$1" "$warm" "$cache_x") || exit
	summary_py table "$1" "$warm" "$cache_x" "$(paired_ratio <<<"$pairs")" "$(peer_limit fio)"
}
summary_py() {
	python3 - "$@" <<'EOF'
import re, statistics, sys
mode, vals, first, later, rounds, seen = sys.argv[1], {}, {}, {}, {}, set()
warm, cache_x = int(sys.argv[3]), float(sys.argv[4])
line_re = re.compile(r"^(\d+) (disk-[a-z0-9:-]+) (ours|theirs) (\d+\.?\d*|\.\d+) [0-9.]+$")
any_line = False
for line in open(sys.argv[2], errors="replace"):
    m = line_re.match(line.strip())
    if not m:
        continue
    r, t, tool, v = int(m.group(1)), m.group(2), m.group(3), float(m.group(4))
    if (r, t, tool) in seen:
        print("disk-vs-fio: round %d of %s (%s) appears twice: two runs' lines joined? pair each "
              "run's file alone" % (r, t, "isobench" if tool == "ours" else "fio"), file=sys.stderr)
        sys.exit(2)
    seen.add((r, t, tool))
    any_line = True
    if r == 1:
        first[(t, tool)] = v
    else:
        later.setdefault((t, tool), []).append(v)
    if r > warm:
        vals.setdefault(t, {}).setdefault(tool, []).append(v)
        rounds.setdefault(t, {}).setdefault(r, {})[tool] = v
if mode == "pairs":
    for t, d in rounds.items():
        for r, o in sorted(d.items()):
            if "ours" in o and "theirs" in o:
                print(t, o["ours"], o["theirs"])
    sys.exit()
# ROW MEDIAN MIN MAX N, from paired_ratio (peer-lib.sh)
paired = {l.split()[0]: l.split()[1:] for l in sys.argv[5].splitlines() if l.strip()}
if warm:
    print("# medians and ratios leave out rounds 1..%d (WARMUP): the host's cache filling" % warm)
if not vals:
    sys.exit("disk-vs-fio: no per-run lines in %s%s" % (sys.argv[2], " after round %d (WARMUP)" % warm if any_line else ""))
lim = int(sys.argv[6])  # percent, peer-lib.sh's peer_limit fio
print("%-24s %14s %14s %8s  %-10s  %s" % ("test", "isobench", "fio", "ours/fio", "within %d%%" % lim, "rounds: lowest-highest (N)"))
for t, d in vals.items():
    q, lo, hi, n = paired.get(t, ["-", "-", "-", "0"])
    if n == "0":
        print("%-24s %s" % (t, "a tool gave no figure" if len(d) < 2 else "no round gave a figure above 0 from both tools"))
        continue
    a, b = statistics.median(d["ours"]), statistics.median(d["theirs"])
    q, lo, hi = float(q), float(lo), float(hi)  # paired_ratio's 6 decimals: judged so, shown with 3
    print("%-24s %14.1f %14.1f %8.3f  %-10s  %.3f-%.3f (%s)" % (t, a, b, q, "yes" if abs(q - 1) <= lim / 100 else "NO", lo, hi, n))
# reads: latency in ns (lower is faster) or IOPS / MiB/s (higher is faster)
for (t, tool), v in sorted(later.items()):
    if "read" not in t or not first.get((t, tool)):
        continue
    m = statistics.median(v)
    if m <= 0:
        continue
    x = first[(t, tool)] / m if t == "disk-randread-4k-qd1" else m / first[(t, tool)]
    if x > cache_x:
        print("WARNING: %s (%s) read %.1fx faster in rounds 2..%d than in round 1: a cache under "
              "this machine (the host's page cache) answers repeated reads; these are its "
              "figures, not the disk's (a fresh file, or a span larger than the host's memory)"
              % (t, "isobench" if tool == "ours" else "fio", x, len(v) + 1))
EOF
}
if [ $# -eq 2 ] && [ "$1" = --summary ]; then
	if ! [ -f "$2" ] || ! [ -r "$2" ]; then die "--summary $2: not a readable regular file (a run's printed lines)"; fi
	[ ! -s "$2" ] || LC_ALL=C grep -qI '' "$2" || die "--summary $2: a binary file, not a run's printed lines"
	summary "$2"
	exit
fi
[ $# -eq 4 ] || { sed -n '5,/^# Needs:/p' "$0" >&2; exit 2; }
file=$1 size=$2 rounds=$3 secs=$4
# TESTS, checked before anything runs: a name theirs() does not know ran fio's default job
# (randread 4k qd1) under it, and a test given twice was refused only by the table, after
# every round had been measured ("appears twice: two runs' lines joined?").
all="disk-randread-4k-qd1 disk-randread-4k-qd32 disk-read-1m disk-write-1m disk-randwrite-4k-qd1"
read -r -d '' -a tests <<<"${TESTS:-$all disk-flush}" || true	# every line, not the first
one_each TESTS "$all disk-flush" "${tests[@]}"
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/out/isobench
command -v fio >/dev/null || { echo "disk-vs-fio.sh: no fio (apt-get install fio)" >&2; exit 2; }
[ -x "$bin" ] || { echo "disk-vs-fio.sh: no $bin (./build.sh)" >&2; exit 2; }
if ! head -c 16 "$file" 2>/dev/null | grep -q ISOBENCH-SCRATCH; then
	"$bin" --make-scratch "$file" "$size"
fi
if [ -b "$file" ]; then bytes=$(blockdev --getsize64 "$file"); else bytes=$(stat -c %s "$file"); fi
span=$(((bytes - 1048576) / 1048576 * 1048576))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ours TEST: "ROW VALUE" lines: the median over the samples of the test's value (p50_ns,
# IOPS or MiB/s); for disk-flush the medians of the samples' flush_p50_ns and write_p50_ns.
ours() {
	# --disk.seed: the seed fio gets (--randseed below), fixed, as this method was measured
	# (a run's own default is a fresh one, issue 45)
	"$bin" --disk "$file" --tests "$1" --copies 1 --sample_ms 1000 --samples "$secs" \
		--ci 100 --disk.seed 20261201 >"$tmp/ours.log" 2>/dev/null
	if [ "$1" != disk-flush ]; then
		echo "$1 $(sed -n "s/.* RESULT test=$1 .* median=\([0-9.]*\) .*/\1/p" "$tmp/ours.log")"
		return
	fi
	python3 - "$tmp/ours.log" <<'EOF'
import re, statistics, sys
vals = {"flush": [], "write": []}
for line in open(sys.argv[1], errors="replace"):
    if " SAMPLE test=disk-flush " in line and " warmup=1" not in line:
        for k in vals:
            vals[k].append(int(re.search(r" %s_p50_ns=(\d+)" % k, line).group(1)))
for k, v in vals.items():
    print("disk-flush:%s %.1f" % (k, statistics.median(v)))
EOF
}

# theirs TEST: "ROW VALUE" lines: fio's figures for the same work, from its JSON output.
theirs() {
	local rw=randread bs=4k qd=1 engine=psync what=lat more=(--readonly)
	case $1 in
		disk-randread-4k-qd32) qd=32 engine=io_uring what=iops ;;
		disk-read-1m) rw=read bs=1m what=mbps ;;
		disk-write-1m) rw=write bs=1m what=mbps more=() ;;
		disk-randwrite-4k-qd1) rw=randwrite more=() ;;
		disk-flush) rw=randwrite what=flush more=(--fdatasync=1) ;;
	esac
	fio --name=t --filename="$file" "${more[@]}" --direct=1 --rw="$rw" --bs="$bs" \
		--iodepth="$qd" --ioengine="$engine" --offset=1M --size="$span" --norandommap \
		--randrepeat=1 --randseed=20261201 --lat_percentiles=1 --time_based \
		--ramp_time=1 --runtime="$secs" --output-format=json >"$tmp/fio.json"
	python3 - "$tmp/fio.json" "$what" "$1" "$rw" <<'EOF'
import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
what, test = sys.argv[2], sys.argv[3]
r = job["write" if "write" in sys.argv[4] else "read"]
p50 = lambda lat: lat["percentile"]["50.000000"]
if what == "lat":
    print(test, p50(r["lat_ns"]))
elif what == "iops":
    print(test, "%.1f" % r["iops"])
elif what == "mbps":
    print(test, "%.1f" % (r["bw_bytes"] / 1048576))
else:
    print("disk-flush:flush", p50(job["sync"]["lat_ns"]))
    print("disk-flush:write", p50(r["lat_ns"]))
EOF
}

echo "# $(date -u +%FT%TZ) $(uname -r), $(nproc) of $(nproc --all) CPUs allowed, $(fio --version), file $file ($bytes bytes, span $span)"
: >"$tmp/all"
for ((r = 1; r <= rounds; r++)); do
	for t in "${tests[@]}"; do
		for tool in ours theirs; do
			load=$(cut -d' ' -f1 /proc/loadavg)
			"$tool" "$t" | while read -r row v; do
				echo "$r $row $tool $v $load" | tee -a "$tmp/all"
			done
		done
	done
done
summary "$tmp/all"
