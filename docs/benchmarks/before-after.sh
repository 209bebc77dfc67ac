#!/usr/bin/env bash
# docs/benchmarks/before-after.sh — one change's figures, before and after, on this host: two
# builds of the runner run the same tests natively, interleaved (A B A B ...), in one session,
# and the table gives each test's median over the rounds, after/before paired by round and each
# side's spread (max-min over median) — the ratio means something only beside the spread.
#
#   docs/benchmarks/before-after.sh BEFORE AFTER [ROUNDS] [ISOBENCH OPTIONS...]
#     BEFORE, AFTER  folders holding an `isobench` (and the `isobench-proc` execl and spawn
#                    run; without it they SKIP) — e.g. two `out/` folders of two commits
#     ROUNDS         interleaved rounds (default 3)
#     OPTIONS        passed to both runs (default: --tests index --copies 1 --sample_ms 300
#                    --samples 5-10)
# Out: the logs in $WORK (default a new temporary folder, kept) and a Markdown table on stdout.
# Needs AFTER/isobench-report (it checks the logs; its CSV holds the RESULT values) and awk.
# A test that did not complete in every round on both sides is left out of the table.
# after/before is the median of each round's own after/before (a round runs before, then
# after), beside the rounds' lowest-highest and how many rounds had both ("lo-hi (N)"):
# peer-lib.sh's paired_ratio, 3 decimals (paired_cells). Not the ratio of the two
# medians, which on a host drifting between rounds sets a slow round's figure beside a fast
# one's (docs/benchmarks/memory.md).
set -euo pipefail
# shellcheck source=peer-lib.sh
. "$(dirname "$0")/peer-lib.sh"	# paired_ratio, paired_cells (its die and die_status=2 unused here)
[ $# -ge 2 ] || { sed -n '2,14s/^# \{0,1\}//p' "$0" >&2; exit 2; }
before=$1 after=$2 rounds=${3:-3}
case $rounds in "" | *[!0-9]* | 0) echo "ROUNDS must be a whole number > 0, got '$rounds'" >&2; exit 2 ;; esac
shift $(($# < 3 ? $# : 3))
opts=("$@")
[ ${#opts[@]} -gt 0 ] || opts=(--tests index --copies 1 --sample_ms 300 --samples 5-10)
for d in "$before" "$after"; do [ -x "$d/isobench" ] || { echo "no $d/isobench" >&2; exit 2; }; done
report=$after/isobench-report
[ -x "$report" ] || { echo "no $report" >&2; exit 2; }
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"

for ((r = 1; r <= rounds; r++)); do
	for side in before after; do
		dir=$before
		[ "$side" = after ] && dir=$after
		"$dir/isobench" "${opts[@]}" >"$work/$side-$r.log" 2>/dev/null || true
		# The report checks every CRC, the sequence and END; its CSV holds each RESULT's value.
		"$report" --format csv --label "$side" "$work/$side-$r.log" >"$work/$side-$r.csv" 2>/dev/null ||
			echo "round $r $side: the log is not complete or holds FAILs ($work/$side-$r.log)" >&2
	done
done

echo "Logs: $work; $rounds interleaved rounds; options: ${opts[*]}; load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
# Each RESULT value, one line: "SIDE ROUND TEST COPIES UNIT VALUE" (tab-separated; ROUND from
# the CSV's name, SIDE-ROUND.csv). CSV columns: source,label,run_id,section,line,seq,kind,test,
# copies,key,value,unit
# isobench-report ends its CSV lines with CRLF (report/csv.c): the CR is cut, not kept in UNIT.
awk -F, -v OFS='\t' '{ sub(/\r$/, "") } $7 == "RESULT" && $10 == "value" { r = FILENAME; sub(/\.csv$/, "", r); sub(/.*-/, "", r); print $2, r, $8, $9, $12, $11 }' \
	"$work"/before-*.csv "$work"/after-*.csv >"$work/values.tsv"
# after/before per TEST/COPIES, paired by round: "TEST/COPIES<TAB>MEDIAN<TAB>LO-HI (N)".
awk -F'\t' '{ v[$1, $2, $3 "/" $4] = $6; k[$3 "/" $4]; r[$2] }
	END { for (x in k) for (i in r) if (("after", i, x) in v && ("before", i, x) in v) print x, v["after", i, x], v["before", i, x] }' \
	"$work/values.tsv" | paired_ratio | paired_cells 3 >"$work/paired"
awk -F'\t' -v rounds="$rounds" '
function median(list,   n, v, i, j, t) {
	n = split(list, v, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	lo = v[1]; hi = v[n]
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
FILENAME == ARGV[1] { paired[$1] = $2 " | " $3; next }
{
	k = $3 SUBSEP $4
	if (!(k in unit)) { order[++nk] = k; unit[k] = $5 }
	val[$1, k] = val[$1, k] " " $6; cnt[$1, k]++
}
END {
	print "| test | copies | unit | before (median) | after (median) | after/before paired | rounds: lowest-highest (N) | spread before | spread after |"
	print "|---|---|---|---|---|---|---|---|---|"
	for (i = 1; i <= nk; i++) {
		k = order[i]
		if (cnt["before", k] != rounds || cnt["after", k] != rounds) continue
		mb = median(val["before", k]); sb = (hi - lo) / mb * 100
		ma = median(val["after", k]); sa = (hi - lo) / ma * 100
		split(k, tc, SUBSEP); pk = tc[1] "/" tc[2]
		printf "| %s | %s | %s | %.1f | %.1f | %s | %.1f%% | %.1f%% |\n", tc[1], tc[2], unit[k], mb, ma, (pk in paired) ? paired[pk] : "- | -", sb, sa
	}
}' "$work/paired" "$work/values.tsv"
