#!/usr/bin/env bash
# docs/benchmarks/layers.sh LOGDIR [LAYER...] — the tables of docs/benchmarks/layers.md from
# isolation/run's logs: per layer, UnixBench's index table in its own form (TEST, BASELINE,
# RESULT, INDEX; one table per pass, 1 copy and N copies), where RESULT is the geometric mean
# of the layer's runs' RESULT values and INDEX = RESULT / BASELINE x 10 (UnixBench's index;
# the baseline as each RESULT record carries it, lib/unixbench.h's); the score is the
# geometric mean of the INDEX column, as UnixBench's. Then the loads each run started at.
# Then the comparison, isobench-report --label over every log (one side per layer, its runs
# its replicates, in LAYERs' order): ratios, 95% intervals and the report's three answers
# (different, equivalent, undecided; docs/report.md "Replicates"), verbatim in a code block.
#
# In:  LOGDIR/<layer>-r<round>.log (isolation/run --logs LOGDIR); LAYERs default native uml
#      gvisor qemu, those with logs; REPORT: the report tool (default out/isobench-report of
#      this tree). Only complete runs' RESULT records count (a record is taken as the runner
#      wrote it; isobench-report --check LOG judges a log's completeness).
# Out: Markdown on stdout. Errors: exit 2 on a usage error or a LOGDIR without logs.
# The measuring command, which takes the machine to itself for its rounds:
#   flock LOCK isolation/run --repeat 3 --logs DIR   (LOCK: the file the host's measurers share)
set -euo pipefail
export LC_ALL=C

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
	echo "usage: docs/benchmarks/layers.sh LOGDIR [LAYER...]" >&2
	exit 2
fi
dir=$1
shift
report=${REPORT:-$(cd "$(dirname "$0")/../.." && pwd)/out/isobench-report}
sides=() files=()
layers=("$@")
[ ${#layers[@]} -gt 0 ] || layers=(native uml gvisor qemu)
found=0
for l in "${layers[@]}"; do
	logs=("$dir/$l"-r*.log)
	[ -f "${logs[0]}" ] || continue
	found=1
	for f in "${logs[@]}"; do
		sides+=("$l")
		files+=("$f")
	done
	echo "#### $l: ${#logs[@]} run(s)"
	echo
	# Each pass's table: the index tests (records with baseline=) in the runner's order.
	awk '
		function dec(s) { gsub(/%20/, " ", s); gsub(/%2C/, ",", s); return s }
		function kv(k,   i, a) { for (i = 4; i <= NF; i++) if (index($i, k "=") == 1) { a = substr($i, length(k) + 2); return a } return "" }
		/^@isobench\/1 [0-9]+ TEST / { t = kv("test"); title[t] = dec(kv("title")) }
		/^@isobench\/1 [0-9]+ RESULT / && / baseline=/ {
			t = kv("test"); c = kv("copies"); k = t SUBSEP c
			if (!(k in n)) { order[++no] = k; passes[c] = 1 }
			n[k]++; lsum[k] += log(kv("value")); base[k] = kv("baseline"); unit[k] = kv("unit")
		}
		END {
			for (c in passes) pc[++np] = c + 0
			for (i = 1; i <= np; i++) for (j = i + 1; j <= np; j++) if (pc[j] < pc[i]) { x = pc[i]; pc[i] = pc[j]; pc[j] = x }
			for (p = 1; p <= np; p++) {
				printf "%d cop%s | BASELINE | RESULT (geometric mean) | INDEX | runs\n", pc[p], pc[p] == 1 ? "y" : "ies"
				print "---|---:|---:|---:|---:"
				s = 0; m = 0
				for (o = 1; o <= no; o++) {
					split(order[o], a, SUBSEP); if (a[2] + 0 != pc[p]) continue
					k = order[o]; v = exp(lsum[k] / n[k]); ix = v / base[k] * 10
					printf "%s | %.1f | %.1f %s | %.1f | %d\n", title[a[1]], base[k], v, unit[k], ix, n[k]
					s += log(ix); m++
				}
				printf "**System Benchmarks Index Score**%s | | | **%.1f** |\n\n", m < 12 ? " (Partial Only)" : "", m ? exp(s / m) : 0
			}
		}' "${logs[@]}"
	echo "Loads at each run's start (isolation/run's header):"
	for f in "${logs[@]}"; do
		printf '%s: %s\n' "$(basename "$f" .log)" "$(sed -n 's/.*loadavg \(.*\)$/\1/p' "$f" | head -n 1)"
	done | sed 's/^/- /'
	echo
done
[ "$found" -eq 1 ] || { echo "docs/benchmarks/layers.sh: no <layer>-r<round>.log in $dir" >&2; exit 2; }
[ -x "$report" ] || { echo "docs/benchmarks/layers.sh: no report tool $report (./build.sh, or REPORT=)" >&2; exit 2; }
echo "#### The comparison: \`isobench-report --label $(IFS=,; echo "${sides[*]}") LOGS\`"
echo
echo '```'
"$report" --label "$(IFS=,; echo "${sides[*]}")" "${files[@]}" 2>&1 | sed "s|$dir/||g" || true
echo '```'
