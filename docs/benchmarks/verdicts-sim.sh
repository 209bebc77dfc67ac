#!/usr/bin/env bash
# docs/benchmarks/verdicts-sim.sh — false discoveries and power of isobench-report's verdicts on
# synthetic runs (tests/verdict-logs.py: 24 tests, 5 runs a side, each run's values moved
# together by a normal drift of sd DRIFT, its samples by 0.5%), N pairs of seeds:
#   same:    two same-build logs (seeds S, S+1): rows "different" (false discoveries), rows
#            "equivalent";
#   planted: the second log with t03, t10, t17 10% slower: planted rows found "different",
#            other rows "different".
#   docs/benchmarks/verdicts-sim.sh OUT DRIFT N [MIN-EFFECT]
# OUT: the build's out/ (isobench-report). Prints one line of totals (docs/benchmarks/verdicts.md).
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: $0 OUT DRIFT N [MIN-EFFECT]" >&2; exit 2; }
rep=$1/isobench-report drift=$2 n=$3
gen="$(cd "$(dirname "$0")/../.." && pwd)/tests/verdict-logs.py"
me=()
[ $# -lt 4 ] || me=(--min-effect "$4")
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
rows() { grep -E "^t[0-9]{2} +1 b .* $1 " "$d/out" | grep -cE "${2:-.}"; }
same=0 equiv=0 anyfalse=0 found=0 other=0 anyother=0
for k in $(seq 1 "$n"); do
	python3 "$gen" "$d/a.log" 5 $((1000 + 2 * k)) --drift "$drift"
	python3 "$gen" "$d/b.log" 5 $((1001 + 2 * k)) --drift "$drift"
	python3 "$gen" "$d/p.log" 5 $((1001 + 2 * k)) --drift "$drift" --slower t03=1.10,t10=1.10,t17=1.10
	"$rep" ${me[@]+"${me[@]}"} --label a,b "$d/a.log" "$d/b.log" >"$d/out" 2>&1
	s=$(rows '\*') e=$(rows '=')
	same=$((same + s)) equiv=$((equiv + e)) anyfalse=$((anyfalse + (s > 0)))
	"$rep" ${me[@]+"${me[@]}"} --label a,b "$d/a.log" "$d/p.log" >"$d/out" 2>&1
	f=$(rows '\*' '^t(03|10|17) ') o=$(($(rows '\*') - f))
	found=$((found + f)) other=$((other + o)) anyother=$((anyother + (o > 0)))
done
echo "drift $drift, $n pairs of 5+5 runs, 24 tests${4:+, --min-effect $4}:" \
	"same build: $same of $((24 * n)) rows different ($anyfalse pairs with any), $equiv equivalent;" \
	"planted 10% in 3 tests: $found of $((3 * n)) found different, $other other rows different ($anyother pairs with any)"
