#!/usr/bin/env bash
# docs/benchmarks/memory-vs-lmbench.sh — isobench's mem-latency-<size>-4k against lmbench's
# lat_mem_rd (github.com/intel/lmbench) built from its public source in a temporary directory
# with the runner's compiler and flags (musl-gcc -static and payload/Makefile's BASE_CFLAGS),
# at the same working sets (16 KiB, 512 KiB, 16 MiB, 256 MiB, 1 GiB), stride 64 (one load per
# cache line, as ours). Interleaved in one session: ROUNDS x (isobench, lat_mem_rd), each
# side's median and the ratio paired by round.
#
# What differs between the two programs:
#   * Walk order: the same. lat_mem_rd's default walk is a fixed stride (the prefetchers see
#     it coming, so beyond the caches it reports far less than a load's latency); we use its
#     random mode (-t, "thrash"), which is the walk of ours since 53ab755 (mem.h
#     mem_walk_link()): the pages in a random order, each visited once per lap with one line,
#     64 laps with the line shifted, lines in bit-reversed order. The page orders are drawn by
#     different generators (lmbench's permutation(), our splitmix64 Fisher-Yates).
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
# ORDER=1 adds, per round, docs/benchmarks/memory-walk-order.c (built the same way): one
#   standalone loop per point, walk order ("random": one cycle over all lines, our first walk;
#   "pages": lat_mem_rd -t's, ours now) x page size (4k, 2m), so the walk order is the only
#   difference between two of its columns; and our 2m variant. The table then shows both
#   orders' ns per load and pages/random.
#
# Usage: [ORDER=1] docs/benchmarks/memory-vs-lmbench.sh [ROUNDS (default 3)] [MAX_MB (default 1024)]
#        [lmbench git dir]. lat_mem_rd walks every range from 512 bytes up to MAX_MB: up to
#        16 MB takes ~20 s here, up to 1024 MB 3.7 min quiet, over 14 min loaded; only the points
#        up to MAX_MB are compared.
#        MAX_MB is lat_mem_rd's whole MB (its atoi): 1 or more.
# Needs: out/isobench, musl-gcc and gcc, git, make, prlimit (util-linux), timeout; 2.5 GiB of
#        free memory. An lmbench git dir given must exist (without one: a clone from GitHub).
# Errors: status 2 for a bad argument or a missing tool or source, before anything runs; 1 when
#        isobench failed or a compared figure is missing (nan in the table), saying which.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-3}
maxmb=${2:-1024}
src=${3:-}
bin=$top/out/isobench
# shellcheck source=peer-lib.sh
. "$top/docs/benchmarks/peer-lib.sh"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a whole number >= 1, not '$rounds'"
[[ $maxmb =~ ^[1-9][0-9]*$ ]] || die "MAX_MB must be a whole number of MB >= 1 (lat_mem_rd's), not '$maxmb'"
[ -z "${3:-}" ] || [ -d "$src" ] || die "no lmbench git directory at $src"
tools="git make musl-gcc gcc prlimit timeout"
for t in $tools; do command -v "$t" >/dev/null || die "needs $t on PATH (this run: $tools)"; done
[ -x "$bin" ] || die "build first (./build.sh)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
points=$(for p in 16k:0.01562 512k:0.50000 16m:16.00000 256m:256.00000 1g:1024.00000; do
	if awk -v m="${p#*:}" -v x="$maxmb" 'BEGIN { exit !(m <= x) }'; then echo "$p"; fi; done | tr '\n' ' ')

if [ -n "$src" ]; then git clone -q "$src" "$work/lmbench" || die "cannot clone the lmbench git dir $src"
else timeout 120 git clone -q https://github.com/intel/lmbench "$work/lmbench" ||
	die_status=1 die "no lmbench git dir given and cannot clone it from GitHub"; fi
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
order=${ORDER:-0}
# shellcheck disable=SC2086  # flags are words
if [ "$order" = 1 ]; then
	musl-gcc -static $flags -Wall -Wextra -Werror -o "$work/walk-order" "$top/docs/benchmarks/memory-walk-order.c"
fi
echo "# lmbench $(git -C "$work/lmbench" log -1 --format=%h) lat_mem_rd -N 1 -t $maxmb 64, musl-gcc -static $flags"
echo "# machine: $(nproc) CPUs, $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)"

tests=$(for p in $points; do
	printf 'mem-latency-%s-4k,' "${p%:*}"
	if [ "$order" = 1 ]; then printf 'mem-latency-%s-2m,' "${p%:*}"; fi
done)
# walk_loads KIB: loads per walk-order run, about 8 laps and at least 2e7 below 8 MiB.
walk_loads() { awk -v k="$1" 'BEGIN { l = k * 16; n = 8 * l; if (k < 8192 && n < 2e7) n = 2e7; printf "%d", n }'; }
# ours_value POINT PAGE: this round's 1-copy RESULT value of mem-latency-POINT-PAGE, nan when
# it has none (a SKIP, said by skips above).
ours_value() {
	local v
	v=$(grep -aE "@isobench/1 [0-9]+ RESULT test=mem-latency-$1-$2 copies=1 " "$work/ours.log" |
		sed -nE 's/.* value=([0-9.]+) .*/\1/p') || true
	echo "${v:-nan}"
}
: >"$work/all"
for ((r = 1; r <= rounds; r++)); do
	"$bin" --suite quick --sample_ms 200 --samples 5 --tests "${tests%,}" --copies 1 >"$work/ours.log" 2>&1 ||
		{ rc=$?; skips "$work/ours.log"; die_status=1 die "isobench failed (status $rc)"; }
	skips "$work/ours.log"
	for p in $points; do
		echo "ours $r ${p%:*} $(ours_value "${p%:*}" 4k)" >>"$work/all"
		[ "$order" = 1 ] || continue
		echo "ours2m $r ${p%:*} $(ours_value "${p%:*}" 2m)" >>"$work/all"
		kib=$(awk -v k="${p%:*}" 'BEGIN { n = k + 0; if (k ~ /m$/) n *= 1024; if (k ~ /g$/) n *= 1048576; print n }')
		for o in random pages; do
			for pg in 4k 2m; do
				"$work/walk-order" "$kib" "$pg" "$o" "$(walk_loads "$kib")" |
					awk -v k="${p%:*}" -v r="$r" '{ printf "walk-%s-%s %s %s %s thp_kib=%s\n", $3, $2, r, k, $4, $5 }' >>"$work/all"
			done
		done
	done
	ENOUGH=2000 LOOP_O=0 TIMING_O=0 timeout 900 prlimit --as=6000000000 \
		"$work/lat_mem_rd" -N 1 -t "$maxmb" 64 >"$work/lmb.out" 2>&1 || echo "# round $r: lat_mem_rd status $?"
	for p in $points; do
		v=$(awk -v s="${p#*:}" '$1 == s { print $2 }' "$work/lmb.out")
		echo "lmbench $r ${p%:*} ${v:-nan}" >>"$work/all"
	done
	echo "# round $r done (load $(cut -d' ' -f1 /proc/loadavg))"
done
sed 's/^/# raw: /' "$work/all"

median() { { grep -v nan || true; } | sort -g | awk '{ a[NR] = $1 } END { if (!NR) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
col() { awk -v w="$1" -v k="$2" '$1 == w && $3 == k { print $4 }' "$work/all" | median; }
# ratio_cells NUM DEN POINT: NUM's figure over DEN's at POINT, paired by round (paired_ratio,
# peer-lib.sh) in paired_cells' form: "MEDIAN<TAB>LOWEST-HIGHEST (N)", 3 decimals; "-<TAB>-" when
# no round had both. ratio: the median alone.
ratio_cells() {
	awk -v a="$1" -v b="$2" -v k="$3" '$1 == a && $3 == k { x[$2] = $4 } $1 == b && $3 == k { y[$2] = $4 }
		END { for (r in x) if (r in y) print k, x[r], y[r] }' "$work/all" | paired_ratio | paired_cells 3 |
		paired_cell /dev/stdin "$3"
}
ratio() { ratio_cells "$@" | cut -f1; }
printf '%-6s %12s %12s %10s %19s\n' point lat_mem_rd ours_4k lmb/ours "rounds lo-hi (N)"
missing=
for p in $points; do
	l=$(col lmbench "${p%:*}") o=$(col ours "${p%:*}")
	IFS=$'\t' read -r q rg < <(ratio_cells lmbench ours "${p%:*}")
	printf '%-6s %12s %12s %10s %19s\n' "${p%:*}" "$l" "$o" "$q" "$rg"
	[ "$l" != nan ] || missing+=" lat_mem_rd@${p%:*}"
	[ "$o" != nan ] || missing+=" ours@${p%:*}"
done
# nan: no round gave the figure (a SKIP above, lat_mem_rd stopped or printed no such line).
[ -z "$missing" ] || die_status=1 die "no figures for:$missing (nan above is not a measurement)"
[ "$order" = 1 ] || exit 0
echo "# walk order (memory-walk-order.c, the same loop, only the order or the page size changed):"
printf '%-6s %9s %11s %11s %10s %10s %9s %9s\n' point ours_2m random_4k random_2m pages_4k pages_2m p/r_4k p/r_2m
for p in $points; do
	k=${p%:*} o2=$(col ours2m "${p%:*}") r4=$(col walk-random-4k "${p%:*}") r2=$(col walk-random-2m "${p%:*}")
	p4=$(col walk-pages-4k "$k") p2=$(col walk-pages-2m "$k")
	printf '%-6s %9s %11s %11s %10s %10s %9s %9s\n' "$k" "$o2" "$r4" "$r2" "$p4" "$p2" "$(ratio walk-pages-4k walk-random-4k "$k")" "$(ratio walk-pages-2m walk-random-2m "$k")"
done
