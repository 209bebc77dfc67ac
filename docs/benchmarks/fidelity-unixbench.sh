#!/usr/bin/env bash
# docs/benchmarks/fidelity-unixbench.sh — ours beside byte-unixbench, natively, interleaved.
#
#   fidelity-unixbench.sh UB_DIR OUT_DIR [ROUNDS [SECONDS [COPIES [TESTS]]]] >results.tsv
#   fidelity-unixbench.sh --table results.tsv     the note's table: medians, ours / theirs
#
# In:  UB_DIR: a built byte-unixbench tree (its UnixBench/ folder: pgms/, testdir/), made
#      outside this repository (see fidelity-unixbench.md); OUT_DIR: isobench's out/ (isobench,
#      isobench-proc); ROUNDS (default 3), SECONDS per measurement (default 5), COPIES (default
#      "1 2"), TESTS (default: the 12 index tests).
# Out: one TSV line per measurement on stdout: round test copies tool value unit loadavg1
#      cpu_value, where cpu_value = value x wall seconds / CPU seconds (user + sys of the whole
#      run and everything it waited for): the rate per CPU-second actually received, which a
#      host shared with other work does not skew the way it skews the wall-clock value;
#      progress on stderr.  Each round runs every test and copy count once with each tool,
#      alternating which tool goes first, so load drifting on a shared host hits both alike.
# byte-unixbench's programs run as its Run script runs them (same options, cwd testdir,
# UB_BINDIR set, N copies started together, rate = sum over copies of count / (elapsed /
# timebase)); isobench runs one sample of the same length after its warm-up.
# Errors: exits 2 on a usage error, 1 when a program fails.
set -euo pipefail

# table RESULTS.TSV: the markdown table of the note (medians over rounds, ours / theirs).
if [ "${1:-}" = --table ]; then
	[ -f "${2:-}" ] || { echo "usage: $0 --table RESULTS.TSV" >&2; exit 2; }
	sort -k2,2 -k3,3n -k4,4 "$2" | awk -F'\t' '
		function median(list,   a, n, i, t, j) {
			n = split(list, a, " ")
			for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		{ k = $2 "\t" $3; v[k, $4] = v[k, $4] " " $5; u[k] = $6; cv[k, $4] = cv[k, $4] " " $8
		  if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
		  if (!(k in lo) || $7 < lo[k]) lo[k] = $7; if ($7 > hi[k]) hi[k] = $7 }
		END {
			print "| test | copies | unit | byte-unixbench | isobench | ours / theirs | per CPU-s: byte-unixbench | isobench | ours / theirs | loadavg |"
			print "|---|---:|---|---:|---:|---:|---:|---:|---:|---|"
			for (i = 1; i <= nk; i++) {
				k = order[i]; split(k, tc, "\t")
				t = median(v[k, "ub"]); o = median(v[k, "ours"])
				ct = median(cv[k, "ub"]); co = median(cv[k, "ours"])
				printf "| %s | %s | %s | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f | %.1f-%.1f |\n", tc[1], tc[2], u[k], t, o, t ? o / t : 0, ct, co, ct ? co / ct : 0, lo[k], hi[k]
			}
		}'
	exit 0
fi
[ $# -ge 2 ] || { sed -n '2,18s/^# \{0,1\}//p' "$0" >&2; exit 2; }
ub=$(cd "$1" && pwd)
out=$(cd "$2" && pwd)
rounds=${3:-3}
secs=${4:-5}
read -r -a copies <<<"${5:-1 2}"
read -r -a tests <<<"${6:-dhry2reg whetstone-double execl fstime fsbuffer fsdisk pipe context1 spawn shell1 shell8 syscall}"
work=$(mktemp -d /dev/shm/fidelity.XXXXXX)
trap 'rm -rf "$work"' EXIT
[ -x "$ub/pgms/looper" ] || { echo "no $ub/pgms/looper: build byte-unixbench first" >&2; exit 2; }
[ -x "$out/isobench" ] || { echo "no $out/isobench: ./build.sh first" >&2; exit 2; }

# byte-unixbench's command for a test (its Run script's options, duration = secs).
ub_cmd() {
	local p=$ub/pgms
	case $1 in
	dhry2reg | execl | pipe | context1 | spawn | syscall) echo "$p/$1 $secs" ;;
	whetstone-double) echo "$p/whetstone-double" ;;
	fstime) echo "$p/fstime -c -t $secs -d $work -b 1024 -m 2000" ;;
	fsbuffer) echo "$p/fstime -c -t $secs -d $work -b 256 -m 500" ;;
	fsdisk) echo "$p/fstime -c -t $secs -d $work -b 4096 -m 8000" ;;
	shell1) echo "$p/looper $secs $p/multi.sh 1" ;;
	shell8) echo "$p/looper $secs $p/multi.sh 8" ;;
	*) echo "unknown test $1" >&2; exit 2 ;;
	esac
}

TIMEFORMAT='%R %U %S'
# timed FUNCTION ARGS...: run it (its stdout to $work/res), print "value unit cpu_value".
timed() {
	local rt
	{ time "$@" >"$work/res"; } 2>"$work/time"
	rt=$(tail -n 1 "$work/time")
	read -r v u <"$work/res" || true
	[ -n "${v:-}" ] || return 0
	echo "$v $u $rt" | awk '{ c = $4 + $5; printf "%s %s %.3f\n", $1, $2, (c > 0) ? $1 * $3 / c : 0 }'
}

# run_ub TEST COPIES: prints the summed rate and unit.
run_ub() {
	local cmd c pids=()
	cmd=$(ub_cmd "$1")
	for ((c = 0; c < $2; c++)); do
		(
			cd "$ub/testdir"
			s=$(date +%s%N)
			# shellcheck disable=SC2086  # the command's words are meant to split
			UB_BINDIR=$ub/pgms UB_TMPDIR=$work LANG=en_US.utf8 $cmd >"$work/ub.$c.out" 2>&1
			e=$(date +%s%N)
			echo "elapsed $(((e - s) / 1000000))" >>"$work/ub.$c.out"
		) &
		pids+=($!)
	done
	for c in "${pids[@]}"; do wait "$c" || { echo "byte-unixbench $1 failed" >&2; exit 1; }; done
	for ((c = 0; c < $2; c++)); do cat "$work/ub.$c.out"; echo "--"; done | awk -F'|' '
		/^COUNT\|/ { n = $2; tb = $3; u = $4 }
		/^elapsed / { split($0, a, " "); ms = a[2] }
		/^--$/ { sum += (tb > 0) ? n / (ms / 1000 / tb) : n }
		END { printf "%.3f %s\n", sum, u }'
}

# run_ours TEST COPIES: one sample of secs seconds (after isobench's warm-up).
run_ours() {
	TMPDIR=$work "$out/isobench" --tests "$1" --copies "$2" --sample_ms $((secs * 1000)) \
		--samples 1 2>/dev/null | sed -n 's/.* RESULT test=[^ ]* copies=[0-9]* unit=\([^ ]*\) \(better=[a-z]* \)\{0,1\}value=\([^ ]*\) .*/\3 \1/p'
}

for ((r = 1; r <= rounds; r++)); do
	k=0
	for t in "${tests[@]}"; do
		for c in "${copies[@]}"; do
			k=$((k + 1))
			order=(ub ours)
			(((r + k) % 2)) && order=(ours ub)
			for tool in "${order[@]}"; do
				echo "round $r $t copies=$c $tool ..." >&2
				if [ "$tool" = ub ]; then v=$(timed run_ub "$t" "$c"); else v=$(timed run_ours "$t" "$c"); fi
				[ -n "$v" ] || { echo "$tool $t copies=$c gave no result" >&2; exit 1; }
				read -r val unit cval <<<"$v"
				printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$t" "$c" "$tool" "$val" "$unit" \
					"$(cut -d' ' -f1 /proc/loadavg)" "$cval"
			done
		done
	done
done
