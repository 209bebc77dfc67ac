#!/usr/bin/env bash
# docs/benchmarks/memory-vs-stream.sh — isobench's mem-bandwidth-{copy,scale,add,triad} against
# STREAM (McCalpin's stream.c, github.com/jeffhammond/STREAM) built from its public source in a
# temporary directory with the runner's own compiler and flags (musl-gcc -static and
# payload/Makefile's BASE_CFLAGS), at the array sizes our tests chose (their array_kib extra:
# each copy's slice of the one working set, isobench.mem.array; ARRAY=SIZE gives both sides
# that size, else the runner's default). Interleaved in one session: ROUNDS x (isobench,
# STREAM), per kernel each side's median and the ratio paired by round; 1 copy against one
# STREAM process with the whole set, and N copies against N STREAM processes started
# together, each with one copy's slice (their Best Rates summed; STREAM is built without
# OpenMP, as our flags have none). Sets of 2 GiB or more take -mcmodel=medium (STREAM's
# static arrays: stream.c's note on large arrays).
#
# What differs between the two programs: STREAM prints the best of NTIMES (20) single passes
# over its arrays (its "Best Rate") and the average pass time; a sample of ours is a sample_ms
# window (here the runner's standard 500 ms, 10 samples). Our RESULT max (best window) is set
# beside STREAM's Best Rate, and our median beside STREAM's average pass (bytes / avg time):
# on a loaded host the best single pass runs well above the average one. The window matters
# for copy: gcc makes both copies a memcpy, and musl's (rep movsq) runs faster on long spans
# (here 11.4 GB/s in 8 MiB pieces, 18.6 GB/s in 64 MiB ones); with 500 ms samples the harness's
# batches (50 ms) cover whole arrays, as STREAM's one memcpy per pass does. STREAM's
# arrays are static (.bss), ours one anonymous mmap; neither asks for a page size. Both count
# bytes the same way (copy/scale 16, add/triad 24 per element, no write-allocate traffic).
#
# PIN=1 pins both sides one copy per CPU (STREAM process c under taskset -c c, ours --pin 1):
# unpinned, two short STREAM processes can share a CPU for part of their run, which two
# copies held in one window by our harness rarely do.
#
# OMP=1 measures N copies against one OpenMP STREAM with N threads (STREAM's own multi-core
# method: all threads in every pass, timed together, as our copies share one window) instead
# of N separate STREAM processes whose Best Rates are summed. It is built with gcc (libgomp
# needs glibc), our flags and -fvect-cost-model=dynamic: at -O2 gcc's default "very cheap"
# vectorizer cost model leaves a loop scalar when its trip count is not known to be a multiple
# of the vector width, which OpenMP's per-thread bounds make every STREAM loop, so without it
# OpenMP STREAM's scale/add/triad ran as scalar code at 1.5-1.8x below ours (packed SSE2, as
# in STREAM built without OpenMP); the script checks the kernels came out packed. Its copy is
# a call of glibc's memcpy (ours and serial STREAM's: musl's).
#
# NTIMES=K builds STREAM with K passes instead of its default 20 (STREAM's own -DNTIMES): with
# N processes, the longer each runs, the smaller the share of passes in which a process runs
# while the others are still initialising their arrays or have finished.
#
# OFFSET=K builds STREAM with its own -DOFFSET=K (elements between its arrays; STREAM's default
# 0, ours ST_OFFSET in payload/bench/mem_stream.c): the two programs with the same spacing.
#
# Usage: [ARRAY=SIZE] [PIN=1] [OMP=1] [NTIMES=K] [OFFSET=K] docs/benchmarks/memory-vs-stream.sh [ROUNDS (default 3)] [STREAM git dir]
# Needs: out/isobench (./build.sh), musl-gcc and gcc, git, make (OMP=1: objdump; PIN=1: taskset); a
# local clone or a mirror of jeffhammond/STREAM (a STREAM git dir given must exist; without one,
# git clone from GitHub).
# Out: per round the raw figures ("# raw: ours ROUND COPIES KERNEL MAX MEDIAN", "# raw: stream
#   ROUND COPIES KERNEL BEST AVG"), then the table: each side's medians over the rounds (MB/s)
#   and the STREAM/isobench ratios paired by round (their median, then "lo-hi (N)": the
#   lowest and highest of the rounds' ratios and the number of rounds paired).
# Errors: status 2 for a bad argument or a missing tool or source, before anything runs; 1 when
# a run failed or a figure is missing (an isobench SKIP, a STREAM that died), saying which.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-3}
src=${2:-}
bin=$top/out/isobench
pin=${PIN:-0}
omp=${OMP:-0}
ntimes=${NTIMES:-20}
offset=${OFFSET:-0}
array=${ARRAY:-}
# shellcheck source=peer-lib.sh
. "$top/docs/benchmarks/peer-lib.sh"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a whole number >= 1, not '$rounds'"
[[ $ntimes =~ ^[1-9][0-9]*$ ]] || die "NTIMES must be a whole number >= 1, not '$ntimes'"
[[ $offset =~ ^(0|[1-9][0-9]*)$ ]] || die "OFFSET must be a whole number of elements >= 0, not '$offset'"
[ -z "${2:-}" ] || [ -d "$src" ] || die "no STREAM git directory at $src"
tools="git make musl-gcc gcc"
[ "$omp" != 1 ] || tools+=" objdump"
[ "$pin" != 1 ] || tools+=" taskset"
for t in $tools; do command -v "$t" >/dev/null || die "needs $t on PATH (this run: $tools)"; done
[ -x "$bin" ] || die "build first (./build.sh)"
[ -z "$array" ] || "$bin" --mem.array "$array" --list >/dev/null 2>&1 || die "ARRAY must be a size such as 512M, not '$array'"
setarr=()
[ -z "$array" ] || setarr=(--mem.array "$array")
# The CPUs this process may use (its affinity: taskset, a cpuset), in order; copy c (PIN=1)
# runs on the c-th, as `isobench --pin 1` places its copies. N copies = their number.
cpus=()
IFS=, read -ra spans < <(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
for sp in "${spans[@]}"; do for ((c = ${sp%-*}; c <= ${sp#*-}; c++)); do cpus+=("$c"); done; done
ncpu=${#cpus[@]}
[ "$ncpu" -ge 1 ] || die "cannot read this process's CPUs (Cpus_allowed_list in /proc/self/status)"
copies=1
[ "$ncpu" = 1 ] || copies="1 $ncpu"	# one CPU: only the 1-copy pass (N copies would be it again)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -n "$src" ]; then git clone -q "$src" "$work/stream" || die "cannot clone the STREAM git dir $src"
else timeout 120 git clone -q https://github.com/jeffhammond/STREAM "$work/stream" ||
	die_status=1 die "no STREAM git dir given and cannot clone it from GitHub"; fi
# shellcheck disable=SC2016  # $(BASE_CFLAGS) is make's
flags=$(make -s -C "$top/payload" O="$work/o" --eval 'print-flags: ; @echo $(BASE_CFLAGS)' print-flags)

# The array sizes our tests use: one short run per pass, each copy's array_kib extra (1 copy:
# the whole set; N copies: one copy's slice).
# stream_build N OUT: STREAM with N-element arrays (-mcmodel=medium past 2 GiB of .bss).
stream_build() {
	local big=()
	[ $(($1 * 24)) -lt $((1 << 31)) ] || big=(-mcmodel=medium)
	# shellcheck disable=SC2086  # flags are words
	musl-gcc -static $flags "${big[@]}" -DSTREAM_ARRAY_SIZE="$1" -DNTIMES="$ntimes" -DOFFSET="$offset" -o "$2" "$work/stream/stream.c" -lm
}
for c in $copies; do
	"$bin" --suite quick --sample_ms 20 --tests mem-bandwidth-copy --copies "$c" "${setarr[@]}" >"$work/probe.log" 2>&1 ||
		{ r=$?; skips "$work/probe.log"; die_status=1 die "the array-size probe (isobench) failed: status $r"; }
	kib=$(grep -aoE "SAMPLE test=mem-bandwidth-copy copies=$c .*array_kib=[0-9]+" "$work/probe.log" | head -1 | sed 's/.*array_kib=//') || true
	[ -n "$kib" ] || { skips "$work/probe.log"; die_status=1 die "the array-size probe gave no array_kib (above: why)"; }
	n=$((kib * 1024 / 8))
	[ "$c" != 1 ] || n1=$n
	stream_build "$n" "$work/stream_c$c"
	echo "# STREAM $(git -C "$work/stream" log -1 --format=%h) for $c cop$([ "$c" = 1 ] && echo y || echo ies): array $n elements ($kib KiB), NTIMES $ntimes, OFFSET $offset, musl-gcc -static $flags"
done
if [ "$omp" = 1 ]; then
	# STREAM's own way to measure N cores: one OpenMP process, N threads through every pass
	# together, timed as one (one set of arrays, split among the threads, as our N copies
	# split theirs). OpenMP needs glibc's libgomp: gcc, dynamically linked; the kernels' flags are ours.
	big=()
	[ $((n1 * 24)) -lt $((1 << 31)) ] || big=(-mcmodel=medium)
	# shellcheck disable=SC2086  # flags are words
	gcc -fopenmp $flags "${big[@]}" -fvect-cost-model=dynamic -DSTREAM_ARRAY_SIZE="$n1" -DNTIMES="$ntimes" -DOFFSET="$offset" \
		-o "$work/stream_omp" "$work/stream/stream.c" -lm
	# scale (mulpd), add and triad (addpd) as packed doubles in the outlined parallel loops:
	# every one of main's outlined loops that does double arithmetic (mulsd/addsd: also the
	# vector loop's scalar remainder) must have its packed body too. A total count alone
	# passed with one kernel left scalar (the other loops' packed instructions made it up).
	packed=$(objdump -d --no-show-raw-insn "$work/stream_omp" |
		awk '/<main\._omp_fn\.[0-9]+>:/ { f = $2; sub(/:$/, "", f) } /^$/ { f = "" }
			f && /\t(mulsd|addsd) / { s[f] = 1 } f && /\t(mulpd|addpd) / { p[f] = 1; n++ }
			END { for (k in s) if (!(k in p)) bad = bad " " k; print n + 0 (bad ? " scalar:" bad : "") }')
	if [ "${packed% scalar:*}" != "$packed" ] || [ "$packed" -lt 4 ]; then
		die_status=1 die "OpenMP STREAM's kernels are not all packed: $packed mulpd/addpd (scalar: loops without any)"
	fi
	echo "# N copies: STREAM with OpenMP, gcc -fopenmp $flags -fvect-cost-model=dynamic ($packed packed mulpd/addpd in its loops), $n1 elements, OFFSET $offset, OMP_NUM_THREADS=$ncpu"
fi
echo "# machine: $(nproc) of $(nproc --all) CPUs allowed, $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)"

# stream_run COPIES: per kernel the summed Best Rate and average-pass rate (MB/s: Best Rate x
# min time / avg time) of COPIES concurrent STREAMs.
stream_run() {
	local c pids=()
	if [ "$omp" = 1 ] && [ "$1" -gt 1 ]; then
		if [ "$pin" = 1 ]; then
			OMP_NUM_THREADS=$1 OMP_PROC_BIND=true OMP_PLACES=cores "$work/stream_omp" >"$work/s.0" ||
				die_status=1 die "OpenMP STREAM failed (status $?)"
		else OMP_NUM_THREADS=$1 "$work/stream_omp" >"$work/s.0" || die_status=1 die "OpenMP STREAM failed (status $?)"; fi
		set -- 0
	fi
	for ((c = 0; c < $1; c++)); do
		if [ "$pin" = 1 ]; then taskset -c "${cpus[c]}" "$work/stream_c$1" >"$work/s.$c" & pids+=($!)
		else "$work/stream_c$1" >"$work/s.$c" & pids+=($!); fi
	done
	for c in "${pids[@]}"; do wait "$c" || die_status=1 die "a STREAM process failed (status $?)"; done
	for k in Copy Scale Add Triad; do
		cat "$work"/s.* | awk -v k="$k:" '$1 == k { s += $2; a += $2 * $4 / $3 }
			END { printf "%s %.1f %.1f\n", tolower(substr(k, 1, length(k) - 1)), s, a }'
	done
	rm -f "$work"/s.*
}
# ours_run: max and median per kernel and copies from one isobench run (1 and N copies).
ours_run() {
	"$bin" --suite quick --sample_ms 500 --samples 10 --tests mem-bandwidth-copy,mem-bandwidth-scale,mem-bandwidth-add,mem-bandwidth-triad \
		--copies "${copies// /,}" --pin "$pin" "${setarr[@]}" >"$work/ours.log" 2>&1 ||
		{ r=$?; skips "$work/ours.log"; die_status=1 die "isobench failed (status $r)"; }
	skips "$work/ours.log"
	grep -aE '@isobench/1 [0-9]+ RESULT test=mem-bandwidth-' "$work/ours.log" |
		sed -E 's/.*test=mem-bandwidth-([a-z]+) copies=([0-9]+) .* median=([0-9.]+) .* max=([0-9.]+) .*/\1 \2 \4 \3/' || true	# none: SKIPs (a missing figure below)
}

: >"$work/all"
for ((r = 1; r <= rounds; r++)); do
	ours_run | while read -r k c mx val; do echo "ours $r $c $k $mx $val" >>"$work/all"; done
	stream_run 1 | while read -r k v a; do echo "stream $r 1 $k $v $a" >>"$work/all"; done
	[ "$ncpu" = 1 ] || stream_run "$ncpu" | while read -r k v a; do echo "stream $r $ncpu $k $v $a" >>"$work/all"; done
	echo "# round $r done (load $(cut -d' ' -f1 /proc/loadavg))"
done
sed 's/^/# raw: /' "$work/all"

# The table: per kernel and copies, each side's median over the rounds (STREAM's best and
# average pass, ours max and median), and the ratios STREAM / ours PAIRED by round
# (paired_ratio, peer-lib.sh: the median of the rounds' own ratios, then their lowest-highest
# and how many rounds had both, as paired_cells writes them):
# a host whose bandwidth drifts between rounds moves both sides of a round together, while a
# ratio of the two medians would set figures from different rounds side by side.
median() { awk '$1 + 0 > 0' | sort -g | awk '{ a[NR] = $1 } END { if (!NR) exit; if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# pairs F G: "copies/kernel STREAM-field-F ours-field-G" per round that has both programs' lines.
pairs() {
	awk -v f="$1" -v g="$2" '$1 == "stream" { s[$2, $3, $4] = $f } $1 == "ours" { o[$2, $3, $4] = $g; k[$2, $3, $4] = $3 "/" $4 }
		END { for (x in k) if (x in s) print k[x], s[x], o[x] }' "$work/all"
}
pairs 5 5 | paired_ratio | paired_cells 3 >"$work/best"
pairs 6 6 | paired_ratio | paired_cells 3 >"$work/avg"
printf '%-7s %6s %12s %10s %9s %17s %12s %11s %9s %17s\n' kernel copies STREAM_best ours_max best/max "rounds lo-hi (N)" \
	STREAM_avg ours_median avg/med "rounds lo-hi (N)"
missing=
for c in $copies; do
	for k in copy scale add triad; do
		col() { awk -v c="$c" -v k="$k" -v w="$1" -v f="$2" '$1 == w && $3 == c && $4 == k { print $f }' "$work/all" | median; }
		s=$(col stream 5) a=$(col stream 6) m=$(col ours 5) v=$(col ours 6)
		IFS=$'\t' read -r pb rb < <(paired_cell "$work/best" "$c/$k")
		IFS=$'\t' read -r pa ra < <(paired_cell "$work/avg" "$c/$k")
		if [ -z "$s" ] || [ -z "$a" ] || [ -z "$m" ] || [ -z "$v" ] || [ "$pb" = - ] || [ "$pa" = - ]; then
			missing+=" $k/$c"
			continue
		fi
		printf '%-7s %6s %12.0f %10.0f %9s %17s %12.0f %11.0f %9s %17s\n' "$k" "$c" "$s" "$m" "$pb" "$rb" \
			"$a" "$v" "$pa" "$ra"
	done
done
[ -z "$missing" ] || die_status=1 die "no figures for (kernel/copies):$missing — a SKIP above, or STREAM printed no rate"
