#!/usr/bin/env bash
# tests/test-layout.sh — Dhrystone's and Whetstone's code lands at the same place in the page
# whatever is linked before it (payload/bench/dhry-layout.ld; issue 31).
#
# In:  the checkout's payload/ (built here with make into a temporary folder, never out/).
# Out: one line per assertion, then "N passed, M failed, K skipped"; exit 1 on any failure.
# How: the runner is linked with planted padding (payload/Makefile's LAYOUT_PAD) of 0, 16, 48,
# 112 and 4096 + 24 bytes just before the Dhrystone objects, and once without (the shipped
# layout); 112 is there because aligning the functions to 64 bytes would absorb 16 and 48
# (and, by chance, 4120 here) but not it. Asserted: the padding is there and lies before the code; every symbol the measured
# loops run has the same address mod 4096 in every build (so the same fetch blocks, op-cache
# lines and predictor indexes); each padded runner passes dhry2reg's and whetstone-double's
# self-checks and reports a rate. Whether the speed then stays put is a measurement, not a
# test (a loaded CI host moves it more than layout does): docs/benchmarks/layout.md.
# Shown to fail: the same builds with the section's ALIGN(4096) dropped (a planted copy of the
# script) must break the mod-4096 check for every symbol.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp

pads=(0 16 48 112 4120)
# The code the measured loops run: Dhrystone's procedures, Whetstone's pass and modules, and
# the C library routines they call (the list of payload/bench/dhry-layout.ld).
syms=(dhry_loop Proc_1 Proc_2 Proc_3 Proc_4 Proc_5 Proc_6 Proc_7 Proc_8 Func_1 Func_2 Func_3
	strcmp whet_pass PA P0 P3 atan cos sincos exp log sqrt)

# addr BIN SYM: SYM's address in BIN (hex, no 0x), nothing when absent.
addr() { nm "$1" | awk -v s="$2" '$3 == s && a == "" { a = $1 } END { print a }'; }

# build LABEL [MAKEVAR=VALUE...]: the shipped runner and the padded ones into $tmp/o (objects
# shared), copied to $tmp/LABEL/isobench-{none,padN}; status 1 when a build fails.
build() {
	local label=$1 p
	shift
	mkdir -p "$tmp/$label"
	make -s -C "$top/payload" O="$tmp/o" VERSION=layout "$@" >"$tmp/$label.make" 2>&1 || return 1
	cp "$tmp/o/isobench" "$tmp/$label/isobench-none"
	for p in "${pads[@]}"; do
		make -s -C "$top/payload" O="$tmp/o" VERSION=layout LAYOUT_PAD="$p" "$@" >>"$tmp/$label.make" 2>&1 || return 1
		cp "$tmp/o/isobench-pad$p" "$tmp/$label/"
	done
}

# judge LABEL [TAG]: the structural checks on $tmp/LABEL's builds, each labelled "TAG: ...".
judge() {
	local d=$tmp/$1 tag=${2:-layout} p s a0 a pa first moved bad
	# The padding exists, is N bytes, and ends before the first Dhrystone procedure.
	for p in "${pads[@]}"; do
		pa=$(addr "$d/isobench-pad$p" isobench_layout_pad)
		a=$(addr "$d/isobench-pad$p" Proc_1)
		if [ -n "$pa" ] && [ -n "$a" ] && ((0x$pa + p <= 0x$a)); then
			pass "$tag: pad $p: $p bytes at 0x$pa, before Proc_1 at 0x$a"
		else
			fail "$tag: pad $p: padding at '${pa}', Proc_1 at '${a}'"
		fi
	done
	# 4096 + 24 bytes must move the code to another page (else the padding missed it).
	a0=$(addr "$d/isobench-pad0" Proc_1)
	a=$(addr "$d/isobench-pad4120" Proc_1)
	if [ -n "$a0" ] && [ -n "$a" ] && ((0x$a - 0x$a0 >= 4096)); then
		pass "$tag: 4120 bytes of padding moved Proc_1 by $((0x$a - 0x$a0)) bytes"
	else
		fail "$tag: 4120 bytes of padding moved Proc_1 from '$a0' to '$a'"
	fi
	# Every measured symbol: the same address mod 4096 in every build.
	for s in "${syms[@]}"; do
		first='' bad='' moved=''
		for b in none "${pads[@]/#/pad}"; do
			a=$(addr "$d/isobench-$b" "$s")
			[ -n "$a" ] || { bad="$bad $b:absent"; continue; }
			a=$(printf '%03x' $((0x$a % 4096)))
			moved="$moved $b:$a"
			[ -n "$first" ] || first=$a
			[ "$a" = "$first" ] || bad="$bad $b:$a"
		done
		if [ -z "$bad" ]; then pass "$tag: $s at 0x$first mod 4096 in all builds"
		else fail "$tag: $s moves within the page:$moved${bad:+ (bad:$bad)}"; fi
	done
}

if build layout; then pass "built the runner without and with padding ${pads[*]}"
else fail "build with padding failed: $(tail -n 3 "$tmp/layout.make")"; finish; exit 1; fi
judge layout

# The padded runners run: self-checks pass (setup fails the test otherwise) and a rate comes out.
for b in none "${pads[@]/#/pad}"; do
	log=$("$tmp/layout/isobench-$b" --tests dhry2reg,whetstone-double --copies 1 --sample_ms 50 \
		--samples 1 --tmpdir "$tmp" 2>&1) || true
	n=$(grep -cE ' RESULT test=(dhry2reg|whetstone-double) copies=1 .* value=[0-9.]*[1-9]' <<<"$log" || true)
	if [ "$n" -eq 2 ] && grep -q ' END .* status=ok' <<<"$log"; then
		pass "isobench-$b: dhry2reg and whetstone-double self-checked and measured"
	else
		fail "isobench-$b: $n of 2 results; $(grep -E 'FAIL|ERROR|END' <<<"$log" | head -n 3)"
	fi
done

# Planted: the section without its page alignment. The relinked builds must fail the check for
# every measured symbol (the padding and the move by 4120 bytes still hold).
sed 's/ALIGN(4096)//' "$top/payload/bench/dhry-layout.ld" >"$tmp/planted.ld"
if grep -q 'ALIGN(4096)' "$tmp/planted.ld" || ! build planted LAYOUT_LD="$tmp/planted.ld"; then
	fail "could not build the planted layout"
else
	planted_fails judge planted "${#syms[@]}" "without ALIGN(4096) every measured symbol moves within the page"
fi
finish
