#!/usr/bin/env bash
# docs/benchmarks/fidelity-unixbench.sh — ours beside byte-unixbench, natively, interleaved.
#
#   fidelity-unixbench.sh UB_DIR OUT_DIR [ROUNDS [SECONDS [COPIES [TESTS]]]] >results.tsv
#   fidelity-unixbench.sh --table results.tsv     the note's table: medians, ours / theirs paired
#   fidelity-unixbench.sh --verdict results.tsv [PCT]   one line per test: within +-PCT% or not
#   fidelity-unixbench.sh --shell UB_DIR OUT_DIR [ROUNDS [SECONDS]] >shell.tsv   what differs
#      in shell1: byte-unixbench in its testdir, in a tmpfs copy of it, with en_US.UTF-8
#      present (when UB_LOCPATH names a folder made by `localedef -i en_US -f UTF-8
#      UB_LOCPATH/en_US.utf8`), and ours in tmpfs and on testdir's file system; lines as
#      below with the variant as tool and cpu_value counted from loops (see shell_variant)
#
# In:  UB_DIR: a built byte-unixbench tree (its UnixBench/ folder: pgms/, testdir/), made
#      outside this repository (see fidelity-unixbench.md); OUT_DIR: isobench's out/ (isobench,
#      isobench-proc); ROUNDS (default 3), SECONDS per measurement (default 5), COPIES (default
#      "1 2"), TESTS (default: the 12 index tests; another name, or one twice, is status 2 before
#      anything runs).
# Out: one TSV line per measurement on stdout: round test copies tool value unit loadavg1
#      cpu_value, the rate per CPU-second actually received, which a host shared with other
#      work does not skew the way it skews the wall-clock value: byte-unixbench's = value x
#      wall seconds / CPU seconds (user + sys of the whole run and everything it waited for);
#      ours = its measured SAMPLE's loops over that sample's CPU (run_ours says why);
#      progress, then the --verdict lines, on stderr.  Each round runs every test and copy
#      count once with each tool, alternating which tool goes first, so load drifting on a
#      shared host hits both alike.
# byte-unixbench's programs run as its Run script runs them (same options, cwd testdir,
# UB_BINDIR set, N copies started together, rate = sum over copies of count / (elapsed /
# timebase)); isobench runs one sample of the same length after its warm-up.
# ours / theirs, in --table and --verdict, is paired by round: the median of each round's own
# ours / byte-unixbench's (the two measured back to back), with the lowest-highest of those
# (peer-lib.sh's paired_ratio), not the ratio of the two medians, which on a host drifting
# between rounds sets a slow round's figure beside a fast one's (docs/benchmarks/memory.md).
# --table and --verdict read RESULTS.TSV's lines of 8 tab-separated fields, round and copies
# whole numbers (a CR before the line end is cut, blank lines are skipped); any other line is
# left out, named on stderr by its number (the first five, then how many more). They refuse,
# status 2, a RESULTS.TSV in which no such line is left, or in which one round of a test and
# copies appears twice for one tool (two runs' files joined: which line pairs with which is
# not known), naming the round and test.
# Errors: exits 2 on a usage error or such a RESULTS.TSV, 1 when a program fails.
set -euo pipefail
# shellcheck source=peer-lib.sh
. "$(dirname "$0")/peer-lib.sh"	# paired_ratio; one_each (its die: status 2)

# checked RESULTS.TSV OUT: RESULTS.TSV's result lines into OUT (the header above says which;
# the first 5 others named on stderr, then how many more); status 2 with a message when none
# is left, or when a round of a test, copies and tool appears twice.
checked() {
	awk -F'\t' -v file="$1" '
		function say(m) { print "fidelity-unixbench: " m >"/dev/stderr" }
		{ sub(/\r$/, "") }
		!NF { next }
		NF != 8 || $1 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+$/ || $2 == "" || $4 == "" {
			if (++bad <= 5) say(file " line " NR ": not a result line (round test copies tool value unit loadavg1 cpu_value, tab-separated); left out")
			next
		}
		{ k = $1 FS $2 FS $3 FS $4 }
		k in seen { t = $4 == "ub" ? "byte-unixbench" : $4 == "ours" ? "isobench" : $4
			say("round " $1 " of " $2 " copies=" $3 " (" t ") appears twice: two runs'"'"' lines joined? pair each run'"'"'s file alone")
			twice = 1; exit }
		{ seen[k]; good++; print }
		END {
			if (twice) exit 2
			if (bad > 5) say(file ": " bad - 5 " more lines left out")
			if (!good) { say(file ": no result line"); exit 2 }
		}' "$1" >"$2"
}

# checked_copy RESULTS.TSV: checked's lines in a temporary file, $tsv (removed at exit); exits
# with checked's status when it refuses the file.
checked_copy() {
	tsv=$(mktemp)
	trap 'rm -f "$tsv"' EXIT
	checked "$1" "$tsv" || exit
}

# paired RESULTS.TSV FIELD: "TEST/COPIES MEDIAN MIN MAX N" (paired_ratio): ours / byte-unixbench's
# FIELD (5 the value, 8 cpu_value), paired by round.
paired() {
	awk -F'\t' -v f="$2" '$4 == "ub" { u[$1, $2, $3] = $f } $4 == "ours" { o[$1, $2, $3] = $f; k[$1, $2, $3] = $2 "/" $3 }
		END { for (x in k) if (x in u) print k[x], o[x], u[x] }' "$1" | paired_ratio
}

# medians RESULTS.TSV: per test and copies (in the file's order), tab-separated: test copies
# unit ub ours ub_cpu ours_cpu load_lo load_hi (medians over the rounds), then ours / theirs
# paired by round (paired above; "-" when no round had both): wall wall_lo wall_hi wall_n cpu
# cpu_lo cpu_hi cpu_n (N the rounds paired).
medians() {
	sort -k2,2 -k3,3n -k4,4 "$1" | awk -F'\t' -v wall="$(paired "$1" 5)" -v cpu="$(paired "$1" 8)" '
		function pairs(text, to,   l, n, i, f) {
			n = split(text, l, "\n")
			for (i = 1; i <= n; i++) if (split(l[i], f, " ") == 5 && f[5] > 0) to[f[1]] = f[2] "\t" f[3] "\t" f[4] "\t" f[5]
		}
		BEGIN { pairs(wall, pw); pairs(cpu, pc) }
		function ratios(to, k) { return (k in to) ? to[k] : "-\t-\t-\t0" }
		function median(list,   a, n, i, t, j) {
			n = split(list, a, " ")
			for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		{ k = $2 "\t" $3; v[k, $4] = v[k, $4] " " $5; u[k] = $6; cv[k, $4] = cv[k, $4] " " $8
		  if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
		  if (!(k in lo) || $7 < lo[k]) lo[k] = $7; if ($7 > hi[k]) hi[k] = $7 }
		END {
			for (i = 1; i <= nk; i++) {
				k = order[i]
				split(k, tc, "\t")
				printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k, u[k], median(v[k, "ub"]), median(v[k, "ours"]),
					median(cv[k, "ub"]), median(cv[k, "ours"]), lo[k], hi[k], ratios(pw, tc[1] "/" tc[2]), ratios(pc, tc[1] "/" tc[2])
			}
		}'
}

# --table RESULTS.TSV: the markdown table of the note (medians over rounds, ours / theirs
# paired by round, then the rounds' lowest-highest and how many rounds had both: "lo-hi (N)").
if [ "${1:-}" = --table ]; then
	[ -f "${2:-}" ] || { echo "usage: $0 --table RESULTS.TSV" >&2; exit 2; }
	checked_copy "$2"
	echo "| test | copies | unit | byte-unixbench | isobench | ours / theirs | rounds: lowest-highest (N) | per CPU-s: byte-unixbench | isobench | ours / theirs | rounds: lowest-highest (N) | loadavg |"
	echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
	medians "$tsv" | awk -F'\t' '
		function ratio(q, lo, hi, n) { return q == "-" ? "- | -" : sprintf("%.2f | %.2f-%.2f (%d)", q, lo, hi, n) }
		{ printf "| %s | %s | %s | %.1f | %.1f | %s | %.1f | %.1f | %s | %.1f-%.1f |\n", $1, $2, $3, $4, $5,
			ratio($10, $11, $12, $13), $6, $7, ratio($14, $15, $16, $17), $8, $9 }'
	exit 0
fi

# --verdict RESULTS.TSV [PCT]: one line per test and copies: within or OUTSIDE +-PCT% (default:
# each test's peer-lib.sh peer_limit unixbench TEST, 15, whetstone-double 30) of byte-unixbench, with both ratios (wall clock, per CPU-second received; each paired by
# round, "0.00" when no round had both; shown with 2 decimals, judged unrounded: 1.1504 is
# OUTSIDE +-15% though it shows as 1.15). It judges the wall-clock ratio (the figure a user
# compares) while the load average stayed at or below the CPUs (nproc); above, the
# per-CPU-second one (a loaded host's wall clock measures the scheduler's share), except for
# the file tests, whose per-CPU-second ratio means nothing (byte-unixbench sleeps and syncs
# between phases: fidelity-unixbench.md section 6): their line then says the wall clock is
# unreliable.  Exit status 0 either way; 2 on a usage error or a RESULTS.TSV refused (above).
verdict() {
	local lims="" t
	while IFS= read -r t; do lims+="$t=$(peer_limit unixbench "$t") "; done < <(cut -f2 "$1" | sort -u)
	medians "$1" | awk -F'\t' -v all="$2" -v lims="$lims" -v ncpu="$(nproc)" '
	BEGIN { n = split(lims, a, " "); for (i = 1; i <= n; i++) { split(a[i], kv, "="); lim[kv[1]] = kv[2] } }
	{
		pct = all != "" ? all : lim[$1]; r = $10 + 0; rc = $14 + 0; lo = 1 - pct / 100; hi = 1 + pct / 100
		fs = $1 ~ /^fs/; busy = $9 > ncpu
		x = (busy && !fs) ? rc : r
		v = (x >= lo && x <= hi ? "within" : "OUTSIDE") sprintf(" +-%d%%", pct)
		v = v ((busy && !fs) ? " per CPU-s" : " wall clock")
		if (busy && fs) v = v " (unreliable: load above the CPUs)"
		printf "%-16s copies=%s  ours/theirs %.2f wall, %s per CPU-s  %s (load %.1f-%.1f, %d CPUs)\n", $1, $2, r,
			fs ? "(n/a)" : sprintf("%.2f", rc), v, $8, $9, ncpu }'
}
if [ "${1:-}" = --verdict ]; then
	[ -f "${2:-}" ] || { echo "usage: $0 --verdict RESULTS.TSV [PCT]" >&2; exit 2; }
	pct=${3:-}
	[[ -z $pct || $pct =~ ^[0-9]+$ ]] || { echo "PCT must be a whole number: $3" >&2; exit 2; }
	checked_copy "$2"
	verdict "$tsv" "$pct"
	exit 0
fi
shell=0
[ "${1:-}" = --shell ] && { shell=1; shift; }
[ $# -ge 2 ] || { sed -n '2,/^set -euo/s/^# \{0,1\}//p' "$0" >&2; exit 2; }
ub=$(cd "$1" && pwd)
out=$(cd "$2" && pwd)
rounds=${3:-3}
secs=${4:-5}
read -r -a copies <<<"${5:-1 2}"
index_tests="dhry2reg whetstone-double execl fstime fsbuffer fsdisk pipe context1 spawn shell1 shell8 syscall"
read -r -d '' -a tests <<<"${6:-$index_tests}" || true	# every line, not the first
one_each TESTS "$index_tests" "${tests[@]}"
work=$(mktemp -d /dev/shm/fidelity.XXXXXX)
trap 'rm -rf "$work"' EXIT
[ -x "$ub/pgms/looper" ] || { echo "no $ub/pgms/looper: build byte-unixbench first" >&2; exit 2; }
[ -x "$out/isobench" ] || { echo "no $out/isobench: ./build.sh first" >&2; exit 2; }
# byte-unixbench's Run sets LANG=en_US.utf8; where that locale is installed its shell tests
# sort and grep by its rules, slower than in C (ours run LC_ALL=C; fidelity-unixbench.md 7c).
if locale -a 2>/dev/null | grep -qix 'en_US.utf-\{0,1\}8'; then
	echo "note: en_US.UTF-8 is installed here: byte-unixbench's shell tests run in it, ours in C" >&2
fi

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
	read -r v u own <"$work/res" || true
	[ -n "${v:-}" ] || return 0
	if [ -n "${own:-}" ]; then echo "$v $u $own"; return 0; fi
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
# run_ours TEST COPIES: "value unit cpu_value", cpu_value from the measured SAMPLE itself:
# its loops run (ran_loops) over the CPU its copies' work used in it (cpu_ns: the copy, the
# children it waited for, dhry2reg's server; docs/records.md), in the value's unit. The
# whole run's wall / CPU (the "time" figure byte-unixbench gets) would fold in the runner's
# warm-up, calibration and header, whose CPU share differs from the sample's under load.
# (value x window / loops is the unit per loop; ns is one window, the same for every copy.)
# spawn's cpu_ns misses the forked children its server reaps: its line keeps the time figure.
run_ours() {
	TMPDIR=$work "$out/isobench" --tests "$1" --copies "$2" --sample_ms $((secs * 1000)) \
		--samples 1 2>/dev/null | awk -v t="$1" '
		function sum(s,   a, n, i, x) { n = split(s, a, ","); x = 0; for (i = 1; i <= n; i++) x += a[i]; return x }
		/ SAMPLE / && / i=0 / { for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } }
		/ RESULT / { for (i = 1; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] } }
		END {
			if (r["value"] == "") exit
			own = ""
			if (t != "spawn" && sum(f["loops"]) > 0 && sum(f["cpu_ns"]) > 0)
				own = sprintf(" %.3f", f["value"] * (f["ns"] + 0) / sum(f["loops"]) * sum(f["ran_loops"]) / sum(f["cpu_ns"]))
			print r["value"], r["unit"] own
		}'
}

# shell_variant NAME: one shell1 measurement of secs seconds; prints "lpm lpm lpm_per_cpu":
# loops per wall minute (the tool's figure) and loops x 60 / CPU seconds of the run and all it
# waited for. Ours counts the loops of every SAMPLE record (warm-up and sample; calibration's
# few are not counted, so ours per CPU is a little low); byte-unixbench's looper its COUNT.
shell_variant() {
	local rt u s v loops lp='' d=$ub/testdir
	case $1 in
	ub-tmpfs) d=$work/testdir ;;
	ours) d=$work ;;
	ours-testdir-fs) d=$work_fs ;;
	ub-locale) lp=$UB_LOCPATH ;;
	esac
	TIMEFORMAT='%R %U %S'
	case $1 in
	ub*) { time (cd "$d" && env ${lp:+LOCPATH="$lp"} UB_BINDIR="$ub/pgms" \
		LANG=en_US.utf8 "$ub/pgms/looper" "$secs" "$ub/pgms/multi.sh" 1 >"$work/sh.out" 2>&1); } 2>"$work/time"
		loops=$(sed -n 's/^COUNT|\([0-9]*\)|.*/\1/p' "$work/sh.out") ;;
	*) { time "$out/isobench" --tests shell1 --copies 1 --sample_ms $((secs * 1000)) --samples 1 \
		--tmpdir "$d" >"$work/sh.out" 2>/dev/null; } 2>"$work/time"
		loops=$(awk '/ SAMPLE test=shell1 / { for (f = 1; f <= NF; f++) if ($f ~ /^ran_loops=/) n += substr($f, 11) } END { print n + 0 }' "$work/sh.out")
		v=$(sed -n 's/.* RESULT test=shell1 .* value=\([^ ]*\) .*/\1/p' "$work/sh.out") ;;
	esac
	read -r rt u s <"$work/time"
	[ -n "$loops" ] || return 0
	case $1 in ub*) v=$(awk -v n="$loops" -v t="$secs" 'BEGIN { print n * 60 / t }') ;; esac
	awk -v v="$v" -v n="$loops" -v u="$u" -v s="$s" 'BEGIN { printf "%s lpm %.1f\n", v, n * 60 / (u + s) }'
}

if [ "$shell" = 1 ]; then
	work_fs=$(mktemp -d "$ub/testdir/isobench.XXXXXX")
	trap 'rm -rf "$work" "$work_fs"' EXIT
	cp -r "$ub/testdir" "$work/testdir"
	variants=(ub ub-tmpfs ours ours-testdir-fs)
	[ -z "${UB_LOCPATH:-}" ] || variants+=(ub-locale)
	n=${#variants[@]}
	for ((r = 1; r <= rounds; r++)); do
		for ((j = 0; j < n; j++)); do
			t=${variants[$(((j + r) % n))]}
			echo "round $r shell1 $t ..." >&2
			v=$(shell_variant "$t")
			[ -n "$v" ] || { echo "$t gave no result" >&2; exit 1; }
			read -r val unit cval <<<"$v"
			printf '%s\tshell1\t1\t%s\t%s\t%s\t%s\t%s\n' "$r" "$t" "$val" "$unit" \
				"$(cut -d' ' -f1 /proc/loadavg)" "$cval"
		done
	done
	exit 0
fi

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
					"$(cut -d' ' -f1 /proc/loadavg)" "$cval" | tee -a "$work/all.tsv"
			done
		done
	done
done
verdict "$work/all.tsv" "" >&2
