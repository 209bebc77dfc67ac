#!/usr/bin/env bash
# docs/benchmarks/noise-floor.sh [RUNS] [SUITE] [-- ISOBENCH-OPTIONS...] — measure each test's
# noise floor on this machine: RUNS (default 5) back-to-back native runs of one build
# (out/isobench --suite SUITE, default standard), and per test and copies the spread of the
# RESULT values across them, (max / min - 1) x 100 — the largest ratio any two of the runs
# show, in percent, rounded up to 0.5 %. A comparison (report/compare.c) never calls a change
# inside it a difference.
# Out: on stdout, one line per test and copies, "TEST COPIES PCT" — the file that
# `isobench-report --noise-floor FILE` applies (report/noisefloor.h) — after a '#' line naming
# the machine; the load average before and after and each run's wall time on stderr, the logs
# in $NOISE_DIR (default a temp dir, kept).
# Errors: exits 1 when a run fails or its log is not complete (isobench-report --check).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/sh/die.sh
. "$top/lib/sh/die.sh" # die: "noise-floor: MSG", exit 1
runs=${1:-5}
suite=${2:-standard}
shift $(($# < 2 ? $# : 2))
[ "${1:-}" = -- ] && shift
dir=${NOISE_DIR:-$(mktemp -d /tmp/noise-floor.XXXXXX)}
mkdir -p "$dir"
echo "noise-floor: $runs x --suite $suite $*, logs in $dir; load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for i in $(seq 1 "$runs"); do
	t0=$SECONDS
	"$top/out/isobench" --suite "$suite" "$@" >"$dir/run$i.log" 2>"$dir/run$i.err" ||
		die "run $i failed (see $dir/run$i.err)"
	"$top/out/isobench-report" --check "$dir/run$i.log" >/dev/null ||
		die "run $i's log is not complete"
	echo "noise-floor: run $i: $((SECONDS - t0)) s, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done
echo "noise-floor: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
# RESULT records: "... RESULT test=T copies=C ... value=V ..." (docs/records.md).
echo "# noise floors, $runs x --suite $suite $*: $(uname -n), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%F)"
cat "$dir"/run*.log | tr -d '\r' | awk '
/@isobench\/1 [0-9]+ RESULT / {
	t = c = v = ""
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^test=/) t = substr($i, 6)
		else if ($i ~ /^copies=/) c = substr($i, 8)
		else if ($i ~ /^value=/) v = substr($i, 7) + 0
	}
	k = t " " c
	if (!(k in lo) || v < lo[k]) lo[k] = v
	if (!(k in hi) || v > hi[k]) hi[k] = v
	if (!(k in n)) order[++m] = k
	n[k]++
}
END {
	for (i = 1; i <= m; i++) {
		k = order[i]
		split(k, p, " ")
		pct = lo[k] > 0 ? (hi[k] / lo[k] - 1) * 100 : 100
		pct = int(pct * 2 + 0.999999) / 2
		if (pct < 0.5) pct = 0.5
		printf "%s %s %.1f\t# %d runs\n", p[1], p[2], pct, n[k]
	}
}'
