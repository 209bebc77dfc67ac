#!/usr/bin/env bash
# docs/benchmarks/history-scale.sh [RUNS] — how the results store (docs/history.md) answers at
# scale: RUNS (default 10000) synthetic runs (tests/history-runs.py: two tests a run, eight
# samples each) over four machines, m1 with a 25 % step at its run 2000, added to a new store
# with `isobench-report --db add` (one log, so one transaction, per machine); then the wall
# time of each question, best of three: trend of one test over every machine and over m1,
# compare of two machines' last 30 runs, check of one log against m1's last 30, runs last=20.
# Out: one line per question on stdout, "QUESTION  MS ms wall  MS ms CPU  ANSWER", after a '#' line with
# the store's size and the load average; the store in $HISTORY_DIR (default a temp dir, kept;
# HISTORY_REUSE=1 times its store again instead of making a new one).
# Errors: exits 1 when a step fails or trend does not find m1's step at its run.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../lib/sh/die.sh
. "$top/lib/sh/die.sh" # die: "history-scale: MSG", exit 1
runs=${1:-10000}
rep=$top/out/isobench-report
dir=${HISTORY_DIR:-$(mktemp -d /tmp/history-scale.XXXXXX)}
mkdir -p "$dir"
per=$((runs / 4))
factors() { # factors N STEP_AT: N factors, 1 % apart, 1.25 times from run STEP_AT on
	python3 -c 'import math, sys
n, at = int(sys.argv[1]), int(sys.argv[2])
print(",".join("%.4f" % ((1.25 if 0 <= at <= i else 1.0) * (1 + 0.01 * math.sin(i * 1.7)))
               for i in range(n)))' "$1" "$2"
}
t0=$SECONDS
python3 "$top/tests/history-runs.py" "$dir/m1.log" 0 "$(factors "$per" 2000)" \
	"$dir/m2.log" 0 "$(factors "$per" -1)" "$dir/m3.log" 0 "$(factors "$per" -1)" \
	"$dir/m4.log" 0 "$(factors "$per" -1)" "$dir/cand.log" 100000 1.2 || die "the logs"
if [ -z "${HISTORY_REUSE:-}" ] || [ ! -s "$dir/h.db" ]; then	# HISTORY_REUSE=1: time again
	rm -f "$dir"/h.db*
	for m in m1 m2 m3 m4; do
		"$rep" --db "$dir/h.db" add --machine "$m" "$dir/$m.log" >/dev/null || die "add $m"
	done
fi
echo "# $runs runs added in $((SECONDS - t0)) s (logs made too); store $(du -k "$dir/h.db" | cut -f1) KiB; load $(cut -d' ' -f1-3 /proc/loadavg)"
# timed QUESTION ARGS...: the best wall time of three and that try's CPU time (user +
# system), ms; the last answer's summary line. On a loaded host the wall time is mostly
# waiting for a CPU: the CPU time is what the question costs.
timed() {
	local what=$1 best='' cpu='' w c
	shift
	for _ in 1 2 3; do
		read -r w c < <({ TIMEFORMAT='%R %U %S'; time "$rep" --db "$dir/h.db" "$@" \
			>"$dir/answer" 2>&1; } 2>&1 | awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }')
		if [ -z "$best" ] || [ "$w" -lt "$best" ]; then best=$w cpu=$c; fi
	done
	printf '%-44s %6d ms wall %5d ms CPU  %s\n' "$what" "$best" "$cpu" \
		"$(tail -n 1 "$dir/answer" | cut -c1-90)"
}
timed "trend --test t-rate (4 machines, $runs runs)" trend --test t-rate --format csv
timed "trend --test t-rate --machine m1" trend --test t-rate --machine m1
timed "compare machine=m1,last=30 machine=m2,last=30" compare machine=m1,last=30 machine=m2,last=30
timed "check --baseline machine=m1,last=30 (1 log)" check --baseline machine=m1,last=30 "$dir/cand.log"
timed "runs last=20" runs last=20
"$rep" --db "$dir/h.db" trend --test t-rate --machine m1 --format csv >"$dir/m1.csv"
want=$(sed -n 's/.* BEGIN run=\([0-9a-f]*\) .*/\1/p' "$dir/m1.log" | sed -n 2001p)
got=$(awk -F, '$10 == 1 { print $5 }' "$dir/m1.csv" | tr '\n' ' ')
[ "$got" = "$want " ] || die "trend's change points on m1: want $want, got $got"
echo "# m1's step found at its run 2001 ($want), no other change point"
