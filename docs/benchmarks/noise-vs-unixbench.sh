#!/usr/bin/env bash
# docs/benchmarks/noise-vs-unixbench.sh — run-to-run noise of isobench beside byte-unixbench,
# interleaved, as reported in docs/benchmarks/unixbench-index.md ("Noise").
#
# usage: noise-vs-unixbench.sh UB_DIR ROUNDS SECONDS TESTS VARIANT...
#   UB_DIR    byte-unixbench's UnixBench/ directory, built with its Makefile (outside this
#             repository; nothing of it is copied here)
#   ROUNDS    interleaved rounds; each round runs every test with every variant in turn
#   SECONDS   measured seconds per run: byte-unixbench runs its program SECONDS times for 1 s
#             each and aggregates them as its Run script does (sort, drop the lowest third,
#             geometric mean); isobench takes SECONDS samples of 1000 ms (after its warm-up)
#   TESTS     comma list from: dhry2reg syscall pipe context1 spawn execl
#   VARIANT   LABEL=ub[:CPULIST] (byte-unixbench, under taskset -c CPULIST if given) or
#             LABEL=ISOBENCH_BINARY[:ARGS] (isobench, with extra ARGS such as "--pin 1")
# PER=cpu (environment) divides by CPU time instead of wall time: byte-unixbench's count by
# its user + system seconds (bash's time, children included), isobench's loops by the copy's
# cpu_ns (SAMPLE records). That is each tool's speed while it runs, whatever the load: its
# CV is the tool's own noise. Meaningful for single-process tests (dhry2reg, syscall).
# COPIES=N (environment, default 1): byte-unixbench starts N instances of its program together
# and sums their counts, as its Run script does; isobench runs --copies N. (PER=cpu: 1 only.)
# Out: one line per run on stdout: round label test value load1 (load1 from /proc/loadavg just
# before the run), then per test and label the mean, CV % (sample standard deviation / mean),
# range and mean load. Exit 2 on usage (a TESTS name not in the list above, or one twice).
set -euo pipefail
# shellcheck source=peer-lib.sh
. "$(dirname "$0")/peer-lib.sh"	# one_each (its die: status 2)

[ $# -ge 5 ] || { sed -n '4,22p' "$0" >&2; exit 2; }
per=${PER:-wall} copies=${COPIES:-1}
ub=$1 rounds=$2 secs=$3 tests=$4
shift 4
variants=("$@")
export UB_BINDIR=$ub/pgms

# byte-unixbench: SECONDS runs of 1 s, UnixBench's aggregate over them.
ub_run() {
	local t=$1 cpus=$2 i counts=() pre=()
	[ -n "$cpus" ] && pre=(taskset -c "$cpus")
	local tf c TIMEFORMAT='%3U %3S'
	tf=$(mktemp)
	for ((i = 0; i < secs; i++)); do
		if [ "$copies" -gt 1 ]; then
			for ((k = 0; k < copies; k++)); do
				"${pre[@]}" "$ub/pgms/$t" 1 >"$tf.$k" 2>&1 &
			done
			wait
			counts+=("$(for f in "$tf".*; do
				sed -n 's/^COUNT|\([0-9.]*\)|.*/\1/p' "$f" | head -n 1
			done | awk '{ s += $1 } END { printf "%.1f\n", s }')")
			rm -f "$tf".*
			continue
		fi
		{ time "${pre[@]}" "$ub/pgms/$t" 1 >"$tf.out" 2>&1; } 2>"$tf"
		c=$(sed -n 's/^COUNT|\([0-9.]*\)|.*/\1/p' "$tf.out" | head -n 1)
		[ "$per" = cpu ] && c=$(awk -v c="$c" '{ printf "%.1f\n", c / ($1 + $2) }' "$tf")
		counts+=("$c")
	done
	rm -f "$tf" "$tf.out"
	printf '%s\n' "${counts[@]}" | sort -g |
		awk '{v[NR] = $1} END { d = int(NR / 3); s = 0; for (i = d + 1; i <= NR; i++) s += log(v[i]);
			printf "%.1f\n", exp(s / (NR - d)) }'
}

isb_run() {
	local t=$1 bin=$2 args=()
	read -r -a args <<<"$3"
	if [ "$per" = cpu ]; then
		"$bin" --tests "$t" --copies 1 --sample_ms 1000 --samples "$secs" --ci 100 \
			"${args[@]}" 2>/dev/null | awk '/ SAMPLE / && !/ warmup=1 / {
				for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
				l += f["ran_loops"]; c += f["cpu_ns"] }
				END { if (c > 0) printf "%.1f\n", l / c * 1e9 }'
		return
	fi
	"$bin" --tests "$t" --copies "$copies" --sample_ms 1000 --samples "$secs" --ci 100 \
		"${args[@]}" 2>/dev/null | sed -n 's/.* RESULT .* value=\([0-9.]*\) .*/\1/p'
}

IFS=, read -r -a tl <<<"${tests//$'\n'/,}"	# every line's names, not the first line's
one_each TESTS "dhry2reg syscall pipe context1 spawn execl" "${tl[@]}"
res=$(mktemp)
trap 'rm -f "$res"' EXIT
for ((r = 1; r <= rounds; r++)); do
	for t in "${tl[@]}"; do
		for v in "${variants[@]}"; do
			label=${v%%=*} spec=${v#*=}
			what=${spec%%:*} arg=
			[ "$what" != "$spec" ] && arg=${spec#*:}
			load=$(cut -d' ' -f1 /proc/loadavg)
			if [ "$what" = ub ]; then val=$(ub_run "$t" "$arg"); else val=$(isb_run "$t" "$what" "$arg"); fi
			echo "$r $label $t ${val:-nan} $load" | tee -a "$res"
		done
	done
done
echo "# test label mean cv% min max load1-mean"
awk '{k = $3 " " $2; n[k]++; s[k] += $4; q[k] += $4 * $4; l[k] += $5;
	if (!(k in lo) || $4 < lo[k]) lo[k] = $4; if ($4 > hi[k]) hi[k] = $4}
	END { for (k in n) { m = s[k] / n[k]; v = n[k] > 1 ? (q[k] - n[k] * m * m) / (n[k] - 1) : 0;
		printf "%s %.1f %.2f %.1f %.1f %.2f\n", k, m, (v > 0 ? sqrt(v) : 0) / m * 100, lo[k], hi[k], l[k] / n[k] } }' \
	"$res" | sort
