#!/usr/bin/env bash
# report/variability.sh LOG LOG [LOG...] — run-to-run variability of each test across runs.
#
# In:  two or more isobench logs of the same suite (each must hold a complete run).
# Out: per test and copies: the mean of the RESULT values, the coefficient of variation
#      (sample standard deviation / mean, %), min and max, and how many runs had it; sorted
#      by test as in the logs. Uses isobench-report's CSV (derived rows), so every record is
#      checksum-verified on the way.
# Errors: exit EXIT_USAGE (2) on usage, and isobench-report's status when it is EXIT_USAGE or
# EXIT_INCOMPLETE (3: a log holds no complete run); lib/status.h's names (lib/sh/status.sh).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib/sh/status.sh
. "$here/../lib/sh/status.sh"
declare -A st=()
while read -r name n; do st[$name]=$n; done < <(exit_statuses)
if [ -z "${st[USAGE]:-}" ] || [ -z "${st[INCOMPLETE]:-}" ]; then
	echo "variability: cannot read the exit statuses from lib/status.h" >&2
	exit 1 # a failed script: lib/status.h, whose statuses these are, could not be read
fi
[ $# -ge 2 ] || { echo "usage: report/variability.sh LOG LOG [LOG...]" >&2; exit "${st[USAGE]}"; }
report=${ISOBENCH_REPORT:-$here/../out/isobench-report}
labels=$(seq -s, 1 $#)
csv=$(mktemp)
trap 'rm -f "$csv"' EXIT
rc=0
"$report" --format csv --label "$labels" "$@" >"$csv" 2>/dev/null || rc=$?
if [ "$rc" -eq "${st[INCOMPLETE]}" ] || [ "$rc" -eq "${st[USAGE]}" ]; then
	echo "variability: isobench-report says $rc" >&2
	exit "$rc"
fi
awk -F, '
	$4 == "derived" && $10 == "value" {
		k = $8 " x" $9
		if (!(k in n)) order[++nk] = k
		n[k]++; s[k] += $11; ss[k] += $11 * $11; u[k] = $12
		if (!(k in lo) || $11 < lo[k]) lo[k] = $11
		if (!(k in hi) || $11 > hi[k]) hi[k] = $11
	}
	END {
		printf "%-28s %6s %14s %8s %14s %14s  %s\n", "TEST x COPIES", "RUNS", "MEAN", "CV%", "MIN", "MAX", "UNIT"
		for (i = 1; i <= nk; i++) {
			k = order[i]; m = s[k] / n[k]
			v = n[k] > 1 ? (ss[k] - n[k] * m * m) / (n[k] - 1) : 0
			if (v < 0) v = 0
			printf "%-28s %6d %14.1f %8.2f %14.1f %14.1f  %s\n", k, n[k], m, m ? 100 * sqrt(v) / m : 0, lo[k], hi[k], u[k]
		}
	}' "$csv"
