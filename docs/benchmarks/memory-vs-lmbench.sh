#!/usr/bin/env bash
# docs/benchmarks/memory-vs-lmbench.sh — isobench's mem-latency-<size>-4k against lmbench's
# lat_mem_rd (github.com/intel/lmbench) built from its public source in a temporary directory
# with the runner's compiler and flags (musl-gcc -static and payload/Makefile's BASE_CFLAGS),
# at the same working sets (16 KiB, 512 KiB, 16 MiB, 256 MiB, 1 GiB), stride 64 (one load per
# cache line, as ours). Interleaved in one session: ROUNDS x (isobench, lat_mem_rd), medians.
#
# What differs between the two programs:
#   * Walk order. lat_mem_rd's default walk is a fixed stride (the prefetchers see it coming,
#     so beyond the caches it reports far less than a load's latency); we use its random mode
#     (-t, "thrash"): the pages in a random order, each visited once per round with one line,
#     64 rounds with the line shifted. Ours is one random cycle over all lines (Sattolo): the
#     same page and line counts, both defeat the prefetchers; lat_mem_rd's page order repeats
#     every round.
#   * Pages. lat_mem_rd mallocs its buffer: base pages under THP madvise mode (this host);
#     so it is compared with our 4k variant (MADV_NOHUGEPAGE). It takes its pages from a
#     buffer of the largest size (MAX_MB) for every range, ours exactly the working set.
#   * Timing. lat_mem_rd times loops of 100 unrolled loads with its own harness (benchmp,
#     repetitions -N, minimum kept); ours the harness's windows, RESULT value (aggregate).
#     lmbench's calibration is given as lmbench's own scripts give it (ENOUGH, LOOP_O, TIMING_O
#     in the environment): without them the calibration alone took minutes on this loaded host.
#   * lat_mem_rd needs <rpc/rpc.h>, which musl lacks and lat_mem_rd does not use: an empty
#     header in the temporary directory stands in (lmbench's code is unchanged). Its memory
#     use is bounded with prlimit (its thrash mode re-initializes per repetition).
#
# Usage: docs/benchmarks/memory-vs-lmbench.sh [ROUNDS (default 3)] [MAX_MB (default 1024)]
#        [lmbench git dir]. lat_mem_rd walks every range from 512 bytes up to MAX_MB: up to
#        16 MB takes ~20 s here, up to 1024 MB over 10 minutes (a loaded host); only the points
#        up to MAX_MB are compared.
# Needs: out/isobench, musl-gcc, git, prlimit (util-linux); 2.5 GiB of free memory.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-3}
maxmb=${2:-1024}
src=${3:-/work/.mirror/intel+lmbench/repo}
bin=$top/out/isobench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
points=$(for p in 16k:0.01562 512k:0.50000 16m:16.00000 256m:256.00000 1g:1024.00000; do
	if awk -v m="${p#*:}" -v x="$maxmb" 'BEGIN { exit !(m <= x) }'; then echo "$p"; fi; done | tr '\n' ' ')

[ -x "$bin" ] || { echo "memory-vs-lmbench: build first (./build.sh)" >&2; exit 2; }
if [ -d "$src" ]; then git clone -q "$src" "$work/lmbench"
else git clone -q https://github.com/intel/lmbench "$work/lmbench"; fi
# shellcheck disable=SC2016  # $(BASE_CFLAGS) is make's
flags=$(make -s -C "$top/payload" O="$work/o" --eval 'print-flags: ; @echo $(BASE_CFLAGS)' print-flags)
mkdir -p "$work/shim/rpc"
: >"$work/shim/rpc/rpc.h"
: >"$work/shim/rpc/types.h"
cd "$work/lmbench/src"
# shellcheck disable=SC2086  # flags are words
musl-gcc -static $flags -w -I"$work/shim" -DHAVE_uint -o "$work/lat_mem_rd" lat_mem_rd.c \
	lib_timing.c lib_mem.c lib_stats.c lib_debug.c lib_sched.c getopt.c -lm
cd "$top"
echo "# lmbench $(git -C "$work/lmbench" log -1 --format=%h) lat_mem_rd -N 1 -t $maxmb 64, musl-gcc -static $flags"
echo "# machine: $(nproc) CPUs, $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)"

tests=$(for p in $points; do printf 'mem-latency-%s-4k,' "${p%:*}"; done)
: >"$work/all"
for ((r = 1; r <= rounds; r++)); do
	"$bin" --suite quick --sample_ms 200 --samples 5 --tests "${tests%,}" --copies 1 >"$work/ours.log" 2>&1
	for p in $points; do
		v=$(grep -aE "@isobench/1 [0-9]+ RESULT test=mem-latency-${p%:*}-4k copies=1 " "$work/ours.log" |
			sed -nE 's/.* value=([0-9.]+) .*/\1/p')
		echo "ours ${p%:*} ${v:-nan}" >>"$work/all"
	done
	ENOUGH=2000 LOOP_O=0 TIMING_O=0 timeout 900 prlimit --as=6000000000 \
		"$work/lat_mem_rd" -N 1 -t "$maxmb" 64 >"$work/lmb.out" 2>&1 || echo "# round $r: lat_mem_rd status $?"
	for p in $points; do
		v=$(awk -v s="${p#*:}" '$1 == s { print $2 }' "$work/lmb.out")
		echo "lmbench ${p%:*} ${v:-nan}" >>"$work/all"
	done
	echo "# round $r done (load $(cut -d' ' -f1 /proc/loadavg))"
done
sed 's/^/# raw: /' "$work/all"

median() { grep -v nan | sort -g | awk '{ a[NR] = $1 } END { if (!NR) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
printf '%-6s %12s %12s %10s\n' point lat_mem_rd ours_4k lmb/ours
for p in $points; do
	l=$(awk -v k="${p%:*}" '$1 == "lmbench" && $2 == k { print $3 }' "$work/all" | median)
	o=$(awk -v k="${p%:*}" '$1 == "ours" && $2 == k { print $3 }' "$work/all" | median)
	printf '%-6s %12s %12s %10s\n' "${p%:*}" "$l" "$o" "$(awk -v a="$l" -v b="$o" 'BEGIN { if (b > 0 && a > 0) printf "%.3f", a / b; else print "-" }')"
done
