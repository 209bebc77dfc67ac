#!/usr/bin/env bash
# tests/test-layout.sh — Dhrystone's and Whetstone's code lands at the same place in the page
# whatever is linked before it (payload/proc/dhry-layout.ld for Dhrystone, which runs in
# isobench-proc; payload/whetstone-layout.ld for Whetstone, in the runner; issue 31).
#
# In:  the checkout's payload/ (built here with make into a temporary folder, never out/, from
#      a copy of OUT's objects when out/ holds a built runner: tests/lib.sh seed_objs).
# Out: one line per assertion, then "N passed, M failed, K skipped"; exit 1 on any failure.
# How: isobench-proc and the runner are linked with planted padding (LAYOUT_PAD of
# payload/proc/Makefile and payload/Makefile) of 0, 16, 48, 112 and 4096 + 24 bytes just
# before dhry_1.o and whetstone.o, and once without (the shipped layout); 112 is there
# because aligning the functions to 64 bytes would absorb 16 and 48 (and, by chance, 4120
# here) but not it. Asserted: the padding is there and lies before the code; every symbol the
# measured loops run has the same address mod 4096 in every build (so the same fetch blocks,
# op-cache lines and predictor indexes); each padded pair (runner and isobench-proc in one
# folder) passes dhry2reg's and whetstone-double's self-checks and reports a rate. Whether the
# speed then stays put is a measurement, not a test (a loaded CI host moves it more than
# layout does): docs/benchmarks/layout.md.
# Shown to fail: the same builds with both sections' ALIGN(4096) dropped (planted copies of
# the scripts) must break the mod-4096 check for every symbol.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp

pads=(0 16 48 112 4120)
# The code the measured loops run: Dhrystone's procedures in isobench-proc (its strcmp is
# glibc's, in libc.so.6, placed by that file), Whetstone's pass, modules and musl's maths
# routines in the runner (the lists of payload/proc/dhry-layout.ld and payload/whetstone-layout.ld).
dsyms=(dhry_loop Proc_1 Proc_2 Proc_3 Proc_4 Proc_5 Proc_6 Proc_7 Proc_8 Func_1 Func_2 Func_3)
wsyms=(whet_pass PA P0 P3 atan cos sincos exp log sqrt)

# addr BIN SYM: SYM's address in BIN (hex, no 0x), nothing when absent.
addr() { nm "$1" | awk -v s="$2" '$3 == s && a == "" { a = $1 } END { print a }'; }

# build LABEL [RUNNER_LD [PROC_LD]]: the shipped pair and the padded ones into $tmp/o (objects
# shared), copied to $tmp/LABEL/{none,padN}/{isobench,isobench-proc}; status 1 when a build
# fails. RUNNER_LD / PROC_LD: another layout script for the runner / isobench-proc.
build() {
	local label=$1 p d
	local -a rv=() pv=()
	[ -z "${2:-}" ] || rv=(LAYOUT_LD="$2")
	[ -z "${3:-}" ] || pv=(LAYOUT_LD="$3")
	mkdir -p "$tmp/$label/none"
	make -s -C "$top/payload" O="$tmp/o" VERSION=layout "${rv[@]}" >"$tmp/$label.make" 2>&1 &&
		make -s -C "$top/payload/proc" O="$tmp/o" "${pv[@]}" >>"$tmp/$label.make" 2>&1 || return 1
	cp "$tmp/o/isobench" "$tmp/o/isobench-proc" "$tmp/$label/none/"
	for p in "${pads[@]}"; do
		d=$tmp/$label/pad$p
		mkdir -p "$d"
		make -s -C "$top/payload" O="$tmp/o" VERSION=layout LAYOUT_PAD="$p" "${rv[@]}" >>"$tmp/$label.make" 2>&1 &&
			make -s -C "$top/payload/proc" O="$tmp/o" LAYOUT_PAD="$p" "${pv[@]}" >>"$tmp/$label.make" 2>&1 || return 1
		cp "$tmp/o/isobench-pad$p" "$d/isobench"
		cp "$tmp/o/isobench-proc-pad$p" "$d/isobench-proc"
	done
}

# judge_bin LABEL TAG PROGRAM FIRST SYM...: the structural checks on one program (isobench or
# isobench-proc) of $tmp/LABEL's builds, FIRST the symbol the padding must lie before.
judge_bin() {
	local d=$tmp/$1 tag=$2 prog=$3 first_sym=$4 p s a0 a pa first moved bad
	shift 4
	# The padding exists, is N bytes, and ends before the measured code.
	for p in "${pads[@]}"; do
		pa=$(addr "$d/pad$p/$prog" isobench_layout_pad)
		a=$(addr "$d/pad$p/$prog" "$first_sym")
		if [ -n "$pa" ] && [ -n "$a" ] && ((0x$pa + p <= 0x$a)); then
			pass "$tag: $prog pad $p: $p bytes at 0x$pa, before $first_sym at 0x$a"
		else
			fail "$tag: $prog pad $p: padding at '${pa}', $first_sym at '${a}'"
		fi
	done
	# 4096 + 24 bytes must move the code to another page (else the padding missed it).
	a0=$(addr "$d/pad0/$prog" "$first_sym")
	a=$(addr "$d/pad4120/$prog" "$first_sym")
	if [ -n "$a0" ] && [ -n "$a" ] && ((0x$a - 0x$a0 >= 4096)); then
		pass "$tag: $prog: 4120 bytes of padding moved $first_sym by $((0x$a - 0x$a0)) bytes"
	else
		fail "$tag: $prog: 4120 bytes of padding moved $first_sym from '$a0' to '$a'"
	fi
	# Every measured symbol: the same address mod 4096 in every build.
	for s in "$@"; do
		first='' bad='' moved=''
		for b in none "${pads[@]/#/pad}"; do
			a=$(addr "$d/$b/$prog" "$s")
			[ -n "$a" ] || { bad="$bad $b:absent"; continue; }
			a=$(printf '%03x' $((0x$a % 4096)))
			moved="$moved $b:$a"
			[ -n "$first" ] || first=$a
			[ "$a" = "$first" ] || bad="$bad $b:$a"
		done
		if [ -z "$bad" ]; then pass "$tag: $prog: $s at 0x$first mod 4096 in all builds"
		else fail "$tag: $prog: $s moves within the page:$moved${bad:+ (bad:$bad)}"; fi
	done
}

# judge LABEL [TAG]: both programs.
judge() {
	judge_bin "$1" "${2:-layout}" isobench-proc Proc_1 "${dsyms[@]}"
	judge_bin "$1" "${2:-layout}" isobench whet_pass "${wsyms[@]}"
}

# The objects start as out/'s (seed_objs): the same sources and flags, so make compiles only
# what changed since out/ was built (version.c: VERSION=layout), then links each layout.
seed_objs "${OUT:-$top/out}" "$tmp/o"
if build layout; then pass "built the runner and isobench-proc without and with padding ${pads[*]}"
else fail "build with padding failed: $(tail -n 3 "$tmp/layout.make")"; finish; exit 1; fi
judge layout

# The padded pairs run: self-checks pass (setup fails the test otherwise), a rate comes out,
# and dhry2reg ran in the padded isobench-proc beside the runner.
for b in none "${pads[@]/#/pad}"; do
	d=$tmp/layout/$b
	log=$("$d/isobench" --tests dhry2reg,whetstone-double --copies 1 --sample_ms 50 \
		--samples 1 --tmpdir "$tmp" 2>&1) || true
	n=$(grep -cE ' RESULT test=(dhry2reg|whetstone-double) copies=1 .* value=[0-9.]*[1-9]' <<<"$log" || true)
	if [ "$n" -eq 2 ] && grep -q ' END .* status=ok' <<<"$log" &&
		grep -q " INFO exec\.dhry2reg\.path=$d/isobench-proc " <<<"$log"; then
		pass "$b: dhry2reg (in $b/isobench-proc) and whetstone-double self-checked and measured"
	else
		fail "$b: $n of 2 results; $(grep -E 'FAIL|ERROR|END|exec.dhry2reg.path' <<<"$log" | head -n 3)"
	fi
done

# Planted: both sections without their page alignment. The relinked builds must fail the check
# for every measured symbol (the padding and the move by 4120 bytes still hold).
sed 's/ALIGN(4096)//' "$top/payload/whetstone-layout.ld" >"$tmp/planted.ld"
sed 's/ALIGN(4096)//' "$top/payload/proc/dhry-layout.ld" >"$tmp/planted-proc.ld"
if grep -q 'ALIGN(4096)' "$tmp/planted.ld" "$tmp/planted-proc.ld" ||
	! build planted "$tmp/planted.ld" "$tmp/planted-proc.ld"; then
	fail "could not build the planted layout"
else
	planted_fails judge planted "$((${#dsyms[@]} + ${#wsyms[@]}))" "without ALIGN(4096) every measured symbol moves within the page"
fi
finish
