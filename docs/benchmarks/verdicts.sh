#!/usr/bin/env bash
# docs/benchmarks/verdicts.sh — issue 46's native demonstration (docs/benchmarks/verdicts.md):
# RUNS + RUNS same-build native runs, interleaved a1 b1 a2 b2 ..., compared three ways (a vs b;
# odd vs even; first half vs second half), then the b runs with a planted slowdown of FACTOR in
# the tests PLANT (tests/plant-slowdown.py, records resealed) compared with the a runs.
#
#   docs/benchmarks/verdicts.sh OUT DIR RUNS TESTS [ISOBENCH-ARGS...]
#     OUT: the build's out/ (isobench, isobench-report); DIR: where the logs go (created);
#     TESTS: the runner's --tests; the rest goes to every run (e.g. --disk FILE --peer HOST:PORT,
#     --suite quick, --copies 1).
#   PLANT (default pipe,context1,syscall,spawn) and FACTOR (default 1.10) name the slowdown.
# Prints each comparison's closing line and the rows answered "different", and
# `cat /proc/loadavg` before and after (the machine may be shared). Status: 0, or 2 on usage.
set -uo pipefail

[ $# -ge 4 ] || { echo "usage: $0 OUT DIR RUNS TESTS [ISOBENCH-ARGS...]" >&2; exit 2; }
out=$1 dir=$2 runs=$3 tests=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
plant=${PLANT:-pipe,context1,syscall,spawn} factor=${FACTOR:-1.10}
mkdir -p "$dir" || exit 2
echo "loadavg before: $(cat /proc/loadavg)"
for k in $(seq 1 "$runs"); do
	for s in a b; do
		"$out/isobench" --tests "$tests" "$@" >"$dir/$s$k.log" 2>/dev/null
		echo "run $s$k: status $?, $(date -u +%H:%M:%S), loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
	done
done
echo "loadavg after: $(cat /proc/loadavg)"

# compare NAME LABELS LOG...: the closing line and the rows answered "different".
compare() {
	local name=$1 labels=$2
	shift 2
	"$out/isobench-report" --label "$labels" "$@" >"$dir/$name.txt" 2>&1
	echo "== $name: status $?"
	grep -E '^isobench-report: compared' "$dir/$name.txt"
	grep -E ' \* different: ' "$dir/$name.txt" | sed 's/  */ /g'
}
a=() b=() odd=() even=() first=() second=() la='' lo='' lf=''
for k in $(seq 1 "$runs"); do
	a+=("$dir/a$k.log") b+=("$dir/b$k.log")
done
all=()
for k in $(seq 1 "$runs"); do all+=("$dir/a$k.log" "$dir/b$k.log"); done
n=${#all[@]}
for i in $(seq 0 $((n - 1))); do
	if [ $((i % 2)) -eq 0 ]; then odd+=("${all[$i]}"); else even+=("${all[$i]}"); fi
	if [ "$i" -lt $((n / 2)) ]; then first+=("${all[$i]}"); else second+=("${all[$i]}"); fi
done
for _ in "${a[@]}"; do la+=a,; done
for _ in "${b[@]}"; do la+=b,; done
for _ in "${odd[@]}"; do lo+=a,; done
for _ in "${even[@]}"; do lo+=b,; done
for _ in "${first[@]}"; do lf+=a,; done
for _ in "${second[@]}"; do lf+=b,; done
compare same-ab "${la%,}" "${a[@]}" "${b[@]}"
compare same-alternate "${lo%,}" "${odd[@]}" "${even[@]}"
compare same-halves "${lf%,}" "${first[@]}" "${second[@]}"
pb=()
for f in "${b[@]}"; do
	python3 "$here/../../tests/plant-slowdown.py" "$f" "${f%.log}-planted.log" "$factor" "$plant" || exit 2
	pb+=("${f%.log}-planted.log")
done
echo "planted: $plant x$factor"
compare planted "${la%,}" "${a[@]}" "${pb[@]}"
