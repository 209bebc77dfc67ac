#!/usr/bin/env bash
# docs/benchmarks/fidelity-libc.sh — which C library the process tests' programs need.
#
#   fidelity-libc.sh UB_DIR [ROUNDS [SECONDS]] >libc.tsv
#
# In:  UB_DIR: a built byte-unixbench UnixBench/ folder (outside this repository), run from
#      the repository root (it builds payload/proc three ways into a temporary directory, and
#      needs /bin/busybox, dash, coreutils, grep).
# Out: TSV lines: round shape variant rate unit loadavg1 cpu_rate, where rate is per second
#      (or minute) of wall time and cpu_rate per second (minute) of CPU time (user + sys of
#      the program and everything it waited for: robust when other work shares the CPUs);
#      shape is
#      execl  (N execve()s in one process: isobench-proc execl N, or byte-unixbench's execl)
#      spawn  (N fork+exit+wait by the program: isobench-proc spawn N, or byte-unixbench's spawn)
#      shell1 (fork+exec of multi.sh 1 for SECONDS, counted per minute: our scripts with
#              Debian's dash+coreutils+grep or with busybox-static, or byte-unixbench's scripts)
#      and variant is static-musl, dynamic-musl, dynamic-glibc, busybox, dist or byte-unixbench.
# Rounds interleave every variant, SECONDS (default 5) each; the order alternates per round.
set -euo pipefail

[ $# -ge 1 ] || { sed -n '2,17s/^# \{0,1\}//p' "$0" >&2; exit 2; }
ub=$(cd "$1" && pwd)
rounds=${2:-3}
secs=${3:-5}
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /dev/shm/fidelity-libc.XXXXXX)
trap 'rm -rf "$work"' EXIT
src=$top/payload/proc/isobench-proc.c
flags=(-std=gnu11 -O2 -march=x86-64 -mtune=generic)
musl-gcc "${flags[@]}" -static -o "$work/static-musl" "$src"
musl-gcc "${flags[@]}" -fPIE -pie -o "$work/dynamic-musl" "$src"
gcc "${flags[@]}" -fPIE -pie -o "$work/dynamic-glibc" "$src"

# A shell workload tree like shell.c's: same scripts, sort.src of the same shape, bin/ links.
mkshell() { # mkshell DIR TOOLSET
	local d=$1 t
	mkdir -p "$d/bin"
	for t in sh sort od grep tee wc rm; do
		if [ "$2" = busybox ]; then ln -s /bin/busybox "$d/bin/$t"
		elif [ "$t" = sh ]; then ln -s "$(command -v dash)" "$d/bin/sh"
		else ln -s "$(command -v "$t")" "$d/bin/$t"; fi
	done
	awk 'BEGIN { split("quickly benchmark kernel pages process pipeline rainfall cached signal threads looping north copying shell sorted octal dumping words counter filename blocks writes reader clocks ticking virtual machine guests host timer index baseline scores system call fork execute wait exit memory buffer disk stone dhrystone whet float integer string records array umask mortal export return while done case esac elif shift trap local unset tail", w, " ")
		for (i = 0; i < 362; i++) { nw = 1 + (5 * i) % 6; th = (i % 10 == 7 && i < 350); l = (i % 3 == 2) ? "\t" : ""
			for (j = 0; j < nw; j++) { k = j - th; x = (th && j == 0) ? "the" : w[(37 * i + 11 * k + (i * k) % 13) % 64 + 1]; l = l (j ? " " : "") x }
			print l } }' >"$d/sort.src"
	# shellcheck disable=SC2016  # the $ are the scripts' own
	printf 'sort >sort.$1 <sort.src\nod sort.$1 | sort -n -k 1 >od.$1\ngrep the sort.$1 | tee grep.$1 | wc >wc.$1\nrm sort.$1 od.$1 grep.$1 wc.$1\n' >"$d/tst.sh"
	# shellcheck disable=SC2016
	printf '#!%s/bin/sh\ni=1\nwhile [ $i -le $1 ]; do\n\tsh tst.sh $i &\n\ti=$((i + 1))\ndone\nwait\n' "$d" >"$d/multi.sh"
	chmod +x "$d/multi.sh"
}
mkshell "$work/dist" dist
mkshell "$work/busybox" busybox

now() { date +%s%N; }
TIMEFORMAT='%U %S'
# cpu CMD...: run CMD (its stdout goes to $work/out), print its user+sys CPU seconds.
cpu() {
	{ time "$@" >"$work/out" 2>"$work/err"; } 2>"$work/time"
	tail -n 1 "$work/time" | awk '{ print $1 + $2 }'
}
# loops SECONDS DIR PATH CMD...: run CMD in DIR with PATH until SECONDS pass, print loops
# per minute.
loops() {
	local s=$1 d=$2 p=$3 n=0 t0 t
	shift 3
	t0=$(now)
	while t=$(now); [ $((t - t0)) -lt $((s * 1000000000)) ]; do
		(cd "$d" && PATH=$p LC_ALL=C "$@") || exit 1
		n=$((n + 1))
	done
	echo "$n $t0 $t" | awk '{ printf "%.1f %d\n", $1 * 60e9 / ($3 - $2), $1 }'
}
# count SHAPE PROGRAM: calibrated N for ~SECONDS, then the rate of N.
# The count printed is every loop run, calibration included, as the CPU time covers them all;
# the wall rate is the last run's.
chain() {
	local n=50 t0 t1 all=0
	while :; do
		t0=$(now); "$2" "$1" "$n"; t1=$(now)
		all=$((all + n))
		[ $((t1 - t0)) -ge $((secs * 250000000)) ] && break
		n=$((n * 4))
	done
	n=$((n * secs * 1000000000 / (t1 - t0)))
	t0=$(now); "$2" "$1" "$n"; t1=$(now)
	echo "$n $t0 $t1 $((all + n))" | awk '{ printf "%.1f %d\n", $1 * 1e9 / ($3 - $2), $4 }'
}
ubrate() { # ubrate PROGRAM: byte-unixbench's own count over its own duration
	(cd "$ub/testdir" && UB_BINDIR=$ub/pgms "$ub/pgms/$1" "$secs" 2>&1) |
		awk -F'|' -v s="$secs" '/^COUNT/ { printf "%.1f %d\n", $2 / s, $2 }'
}
# emit ROUND SHAPE VARIANT UNIT SCALE CMD...: run CMD (prints "rate count"), time its CPU.
emit() {
	local r=$1 s=$2 v=$3 u=$4 k=$5 c rate n
	shift 5
	c=$(cpu "$@")
	read -r rate n <"$work/out"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%.1f\n' "$r" "$s" "$v" "$rate" "$u" \
		"$(cut -d' ' -f1 /proc/loadavg)" "$(echo "$n $k $c" | awk '{ print ($3 > 0) ? $1 * $2 / $3 : 0 }')"
}

for ((r = 1; r <= rounds; r++)); do
	vs=(byte-unixbench dynamic-glibc dynamic-musl static-musl)
	((r % 2)) || vs=(static-musl dynamic-musl dynamic-glibc byte-unixbench)
	for shape in execl spawn; do
		for v in "${vs[@]}"; do
			if [ "$v" = byte-unixbench ]; then emit "$r" "$shape" "$v" lps 1 ubrate "$shape"
			else emit "$r" "$shape" "$v" lps 1 chain "$shape" "$work/$v"; fi
		done
	done
	sv=(byte-unixbench dist busybox)
	((r % 2)) || sv=(busybox dist byte-unixbench)
	for v in "${sv[@]}"; do
		if [ "$v" = byte-unixbench ]; then
			UB_BINDIR=$ub/pgms emit "$r" shell1 "$v" lpm 60 loops "$secs" "$ub/testdir" "$PATH" \
				"$ub/pgms/multi.sh" 1
		else
			emit "$r" shell1 "$v" lpm 60 loops "$secs" "$work/$v" "$work/$v/bin" "$work/$v/multi.sh" 1
		fi
	done
done
