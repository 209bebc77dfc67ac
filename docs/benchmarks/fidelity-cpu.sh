#!/usr/bin/env bash
# docs/benchmarks/fidelity-cpu.sh — dhry2reg and whetstone-double: flags and C library, per
# CPU-second, beside byte-unixbench.
#
#   fidelity-cpu.sh UB_DIR [ROUNDS [SECONDS]] >cpu.tsv     (run from the repository root)
#
# In:  UB_DIR: a built byte-unixbench UnixBench/ folder (outside this repository).
# Out: TSV lines: round test variant rate loadavg1.  rate is lps (dhry2reg) or MWIPS per
#      CPU-second (user + sys): robust when other work shares the CPUs.  Variants build our
#      Dhrystone (payload/proc/dhry_*.c, through dhry.h's dhry_selfcheck/dhry_init/dhry_runs,
#      as isobench-proc's dhry-serve runs it) and whetstone-double (payload/bench/whetstone.c,
#      through its bench descriptor, as the runner runs it) into a small driver (below) with:
#      m-O2 (musl, the runner's flags: the image's whetstone-double), m-O3, m-O3fm (-O3
#      -ffast-math), m-O2v2 (-march=x86-64-v2), m-O3v3fm, m-O3nat (-O3 -ffast-math
#      -march=native, byte-unixbench's flags), g-O2, g-O3fm, g-O3nat (the same against glibc,
#      dynamically linked), g-O2pie (glibc, -O2 -fPIE -pie: payload/proc/Makefile's flags,
#      the image's dhry2reg; -fno-plt on every file here, there on dhry_2.c alone, for
#      Func_2's strcmp). The driver is linked without isobench-proc's dhry-layout.ld
#      (Dhrystone on a page of its own): where the code lands can move a figure by a few per
#      cent (docs/benchmarks/layout.md). byte-unixbench's whetstone-double times itself by the
#      wall clock, so its figure is scaled by wall / CPU time of the run.  Dhrystone's
#      self-check runs first in every variant (a build computing wrong values: status 1).
set -euo pipefail

[ $# -ge 1 ] || { sed -n '2,22s/^# \{0,1\}//p' "$0" >&2; exit 2; }
ub=$(cd "$1" && pwd)
rounds=${2:-3}
secs=${3:-2}
# Whole seconds: byte-unixbench's dhry2reg reads its duration with atoi (0.5 is 0: no alarm, it
# never ends).
if ! [[ "$rounds" =~ ^[0-9]+$ && "$secs" =~ ^[1-9][0-9]*$ ]]; then
	echo "fidelity-cpu.sh: ROUNDS must be a whole number and SECONDS whole seconds >= 1, not '$rounds' '$secs'" >&2
	exit 2
fi
for p in dhry2reg whetstone-double; do
	[ -x "$ub/pgms/$p" ] || { echo "fidelity-cpu.sh: no $ub/pgms/$p (build byte-unixbench with its make)" >&2; exit 2; }
done
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The driver: run() a test for ~SECONDS of CPU time, print units per CPU-second.
cat >"$work/drv.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "benchapi.h"
#include "dhry.h"
extern const struct bench bench_whetstone_double;
char bench_name_whetstone_double[1];	/* registry.c makes the name from its row; unused here */
static volatile uint64_t sink;	/* Dhrystone's fold: its work cannot be deleted */
/* dhry2reg's run(): iters more Dhrystone loops, as isobench-proc's dhry-serve answers a batch. */
static int dhry_run(struct bench_ctx *c, uint64_t iters)
{
	(void)c;
	sink += dhry_runs(iters);
	return 0;
}
static const struct bench dhry = { .run = dhry_run, .per_loop = 1 };	/* lps: one loop, one run */
static double cpu(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 + r.ru_stime.tv_sec +
	       r.ru_stime.tv_usec / 1e6;
}
int main(int argc, char **argv)
{
	const struct bench *b = argc > 2 && !strcmp(argv[1], "dhry2reg") ? &dhry
									 : &bench_whetstone_double;
	double want = argc > 2 ? atof(argv[2]) : 2, t0, t1;
	struct bench_ctx c;
	uint64_t it = 1000, n;
	char why[200];

	memset(&c, 0, sizeof c);
	if (b == &dhry) {
		if (dhry_selfcheck(100, why, sizeof why)) {
			fprintf(stderr, "dhrystone self-check failed: %s\n", why);
			return 1;
		}
		dhry_init();
	}
	if (b->setup && b->setup(&c))
		return 1;
	for (;;) {
		t0 = cpu();
		b->run(&c, it);
		t1 = cpu();
		if (t1 - t0 > want / 4)
			break;
		it *= 4;
	}
	n = (uint64_t)(it * (want / (t1 - t0)));
	t0 = cpu();
	b->run(&c, n);
	t1 = cpu();
	printf("%.1f\n", n * b->per_loop / (t1 - t0));
	return 0;
}
C
srcs=("$top/payload/benchapi.c" "$top/payload/proc/dhry_1.c" "$top/payload/proc/dhry_2.c"
	"$top/payload/bench/whetstone.c")
base=(-std=gnu11 -fno-lto -fno-strict-aliasing -Wall -Wextra -Werror -I"$top/payload" -I"$top/payload/proc"
	-I"$top/lib")
build() { # build NAME CC FLAGS...
	local n=$1 cc=$2
	shift 2
	$cc "${base[@]}" "$@" -o "$work/$n" "$work/drv.c" "${srcs[@]}" -lm
}
build m-O2 musl-gcc -static -O2 -march=x86-64 -mtune=generic
build m-O3 musl-gcc -static -O3 -march=x86-64 -mtune=generic
build m-O3fm musl-gcc -static -O3 -ffast-math -march=x86-64 -mtune=generic
build m-O2v2 musl-gcc -static -O2 -march=x86-64-v2 -mtune=generic
build m-O3v3fm musl-gcc -static -O3 -ffast-math -march=x86-64-v3 -mtune=generic
build m-O3nat musl-gcc -static -O3 -ffast-math -march=native -mtune=native
build g-O2 gcc -O2 -march=x86-64 -mtune=generic
build g-O3fm gcc -O3 -ffast-math -march=x86-64 -mtune=generic
build g-O3nat gcc -O3 -ffast-math -march=native -mtune=native
build g-O2pie gcc -O2 -march=x86-64 -mtune=generic -fPIE -pie -fno-plt

TIMEFORMAT='%U %S %R'
cd "$ub/pgms"
for ((r = 1; r <= rounds; r++)); do
	for t in dhry2reg whetstone; do
		for v in ub m-O2 m-O3 m-O3fm m-O2v2 m-O3v3fm m-O3nat g-O2 g-O3fm g-O3nat g-O2pie; do
			if [ "$v" = ub ] && [ "$t" = dhry2reg ]; then
				{ time ./dhry2reg "$secs" 2>"$work/ub.out"; } 2>"$work/ub.t"
				o=$(awk -F'|' '/^COUNT/ { print $2 }' "$work/ub.out")
				read -r u s w <"$work/ub.t"
				o=$(awk -v o="$o" -v u="$u" -v s="$s" 'BEGIN { print o / (u + s) }')
			elif [ "$v" = ub ]; then
				{ time ./whetstone-double >"$work/ub.out" 2>&1; } 2>"$work/ub.t"
				o=$(awk -F'|' '/^COUNT/ { print $2 }' "$work/ub.out")
				read -r u s w <"$work/ub.t"
				o=$(awk -v o="$o" -v u="$u" -v s="$s" -v w="$w" 'BEGIN { print o * w / (u + s) }')
			else
				o=$("$work/$v" "$t" "$secs")
			fi
			printf '%s\t%s\t%s\t%.1f\t%s\n' "$r" "$t" "$v" "$o" "$(cut -d' ' -f1 /proc/loadavg)"
		done
	done
done
