#!/usr/bin/env bash
# tests/test-testlib.sh — tests/lib.sh's own verbs: each assertion fails when it should (a
# wrong status, a missing match, and an absence looked for in a missing or empty file), passes
# when it should, and the exit helpers keep the script's status, run in order and kill what
# they were given. Statuses are names: lib.sh's EXIT_* are exactly lib/status.h's (a retyped
# one is found, an added one is derived), and no test script passes a bare number as the status
# it wants (both shown failing on planted copies). qboot through qemu/run is judged with a
# stand-in qemu/run (a clean boot passes and is timed; a bad status, log or identity fails).
#
# In:  tests/lib.sh, tests/fixtures/logs (complete, cut and FAIL-holding logs), OUT's
#      isobench-report (OUT defaults to the repository's out/) for complete and ran.
# Out: one line per assertion, then "N passed, M failed, K skipped". Errors: exit 1 on any failure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
fix=$here/fixtures/logs
# shellcheck source=lib.sh
. "$here/lib.sh"
use_tmp

# verdict COMMAND...: what one verb says, run in a fresh shell that sourced lib.sh (with this
# $tmp): "ok", "FAIL", or "none" when its first line is neither.
verdict() {
	local line
	line=$(bash -c '. "$1"; tmp=$2; shift 2; "$@"' _ "$here/lib.sh" "$tmp" "$@" 2>/dev/null | head -n 1)
	case $line in ok:*) echo ok ;; FAIL:*) echo FAIL ;; *) echo none ;; esac
}
# want VERDICT DESCRIPTION -- COMMAND...: the verb's verdict must be VERDICT.
want() {
	local w=$1 what=$2 got
	shift 3
	got=$(verdict "$@")
	if [ "$got" = "$w" ]; then pass "$what: $got"; else fail "$what: want $w, got $got"; fi
}

empty=$tmp/empty none=$tmp/none text=$tmp/text
: >"$empty"
printf 'alpha\nbeta\n' >"$text"

# ---- the verbs and finish ---------------------------------------------------------------------
st=0
out=$(bash -c '. "$1"; pass a; fail b; skip c; finish' _ "$here/lib.sh") || st=$?
if [ "$(tail -n 1 <<<"$out")" = "1 passed, 1 failed, 1 skipped" ] && [ "$st" -ne 0 ]; then
	pass "finish counts each verb and fails after a FAIL (status $st)"
else fail "finish: '$(tail -n 1 <<<"$out")', status $st"; fi
st=0
out=$(bash -c '. "$1"; pass a; skip c; finish' _ "$here/lib.sh") || st=$?
if [ "$(tail -n 1 <<<"$out")" = "1 passed, 0 failed, 1 skipped" ] && [ "$st" -eq 0 ]; then
	pass "finish: status 0 without a FAIL (a skip is not one)"
else fail "finish without FAIL: '$(tail -n 1 <<<"$out")', status $st"; fi

want FAIL "check on a failing command" -- check d false
want ok "check on a succeeding command" -- check d true
want FAIL "status_is with another status" -- status_is EXIT_OK 1 d
want FAIL "status_is with no status at all" -- status_is EXIT_OK "" d
want ok "status_is with that status" -- status_is EXIT_USAGE 2 d
want FAIL "status_is with a bare number, even the right one" -- status_is 2 2 d
want FAIL "status_is with a name lib/status.h lacks" -- status_is EXIT_NOSUCH 0 d
want ok "status_is SIGTERM: killed by the signal (143)" -- status_is SIGTERM 143 d
want ok "status_is CMD_FAILED: a script's die() (1)" -- status_is CMD_FAILED 1 d
want FAIL "expect_status with another status" -- expect_status EXIT_OK d -- false
want FAIL "expect_status with a bare number" -- expect_status 1 d -- false
want ok "expect_status with that status" -- expect_status EXIT_FAILS d -- false
printf 'CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=m\n' >"$tmp/k.config"
want ok "kconfig_has with every line there" -- kconfig_has "$tmp/k.config" d CONFIG_A=y CONFIG_C=m
want FAIL "kconfig_has with a symbol not set" -- kconfig_has "$tmp/k.config" d CONFIG_A=y CONFIG_B=y
want FAIL "kconfig_has with a module where =y is asked" -- kconfig_has "$tmp/k.config" d CONFIG_C=y
want FAIL "kconfig_has on a missing config" -- kconfig_has "$none" d CONFIG_A=y

# ---- statuses by name: lib.sh's EXIT_* are lib/status.h's, and no test numbers one ---------------
# names_judge ROOT LABEL: ROOT/tests/lib.sh, sourced, defines exactly the EXIT_<NAME>=<N> of
# ROOT/lib/status.h's "#define EXIT_<NAME> <N>" lines (read here with awk, not lib.sh's sed).
names_judge() {
	local root=$1 label=$2 want got
	want=$(awk '$1 == "#define" && $2 ~ /^EXIT_[A-Z]+$/ && $3 ~ /^[0-9]+$/ { print $2 "=" $3 }' \
		"$root/lib/status.h" | sort)
	# shellcheck disable=SC2016  # expanded by the inner shell
	got=$(env -u EXIT_OK bash -c '. "$1/tests/lib.sh" && for v in $(compgen -v EXIT_); do
		echo "$v=${!v}"; done' _ "$root" | sort)
	if [ -z "$want" ]; then fail "$label: no #define EXIT_ line in $root/lib/status.h"; return; fi
	none "$(comm -3 <(echo "$want") <(echo "$got"))" \
		"$label: tests/lib.sh's EXIT_* are lib/status.h's $(wc -l <<<"$want") statuses" \
		"$label: tests/lib.sh and lib/status.h differ (left: status.h only, right: lib.sh only)"
}
# bare_judge ROOT LABEL: no script tests/*.sh under ROOT gives status_is, expect_status, ran or
# test-report.sh's own status helpers (run, follow) a bare number as the status it wants, nor complete as its
# third argument, nor compares a status variable ($st, $rc, ${vrc} ...) with -eq/-ne to a
# number other than 0 (one check per file); and tests/fixtures/logs/expected.tsv's status
# column holds names.
bare_judge() {
	local root=$1 label=$2 f
	for f in "$root"/tests/*.sh; do
		none "$(grep -nE '(^|[;&|{]|then|do|else)[[:space:]]*(status_is|expect_status|ran|run|follow)[[:space:]]+["'"'"']?[0-9]|^[[:space:]]*complete[[:space:]].*[[:space:]][0-9]+[[:space:]]*$|\$\{?[A-Za-z_]*(st|rc|status)\}?"?[[:space:]]+-(eq|ne)[[:space:]]+["'"'"']?[1-9]' "$f")" \
			"$label: ${f#"$root"/} names the statuses it wants" \
			"$label: ${f#"$root"/} passes a bare number as a status"
	done
	f=$root/tests/fixtures/logs/expected.tsv
	none "$(awk -F '\t' '!/^#/ && NF > 1 && $2 !~ /^EXIT_[A-Z]+$/ { print FILENAME ":" NR ": " $2 }' "$f")" \
		"$label: expected.tsv names the statuses it wants" \
		"$label: expected.tsv gives a bare number as a status"
}
names_judge "$here/.." tree
bare_judge "$here/.." tree
# Planted: a number retyped in a copy of lib.sh; bare numbers in two copied scripts.
tree_copy "$tmp/t1" lib/status.h lib/sh tests
sed -i 's/^CMD_FAILED=1 MAKE_FAILED=2$/&\nEXIT_USAGE=12/' "$tmp/t1/tests/lib.sh"
# shellcheck disable=SC2016  # the planted lines are code
printf 'status_is 2 "$st" x\nexpect_status 0 x -- true\n' >>"$tmp/t1/tests/test-proc.sh"
# shellcheck disable=SC2016
printf '\tran 1 "$st" "$log" x\n' >>"$tmp/t1/tests/test-disk.sh"
# shellcheck disable=SC2016
printf 'complete "$log" x 3\n' >>"$tmp/t1/tests/test-disk.sh"
# shellcheck disable=SC2016
printf 'run 3 "$tmp/x" --check "$fix/flipped.log" || true\n' >>"$tmp/t1/tests/test-report.sh"
# shellcheck disable=SC2016  # (the numbers as %s: this file's own lines must pass the lint)
printf 'if [[ $vrc -eq %s ]]; then pass x; fi\n' 3 >>"$tmp/t1/tests/test-pct.sh"
# shellcheck disable=SC2016
printf 'check x test "$st" -eq 0 -o "${st}" -eq %s\nfollow %s "$tmp/f" x\n' 4 3 >>"$tmp/t1/tests/test-fleet.sh"
sed -i 's/^native\.log\tEXIT_OK\t/native.log\t0\t/' "$tmp/t1/tests/fixtures/logs/expected.tsv"
planted_fails names_judge "$tmp/t1" 1 "a status retyped in tests/lib.sh is found"
planted_fails bare_judge "$tmp/t1" 6 "bare-number statuses in five scripts and expected.tsv are found"
# Derived, not retyped: a status added to a copy of lib/status.h is a name in that copy's lib.sh.
tree_copy "$tmp/t2" lib/status.h lib/sh tests/lib.sh
sed -i 's/^#define EXIT_OK 0.*/&\n#define EXIT_PLANTED 42\t\/* planted *\//' "$tmp/t2/lib/status.h"
planted_fails names_judge "$tmp/t2" 0 "a status added to lib/status.h"
# shellcheck disable=SC2016  # expanded by the inner shell
got=$(bash -c '. "$1/tests/lib.sh"; _lib_status EXIT_PLANTED' _ "$tmp/t2")
if [ "$got" = 42 ]; then pass "... is a name of tests/lib.sh at once (EXIT_PLANTED is $got)"
else fail "a status added to lib/status.h: tests/lib.sh gives EXIT_PLANTED '$got', want 42"; fi

# planted_fails JUDGE ROOT WANT: its verdict (the last line) is ok only for exactly WANT FAILs of
# the judge; the judge's own FAILs never count as the script's. Here ROOT is how many fail.
pf() {
	bash -c '. "$1"; tmp=$2
		j() { local i; for ((i = 0; i < $1; i++)); do fail "$2: c$i"; done; pass "$2: other"; }
		planted_fails j "$3" "$4" d; echo "fails=$fail"' _ "$here/lib.sh" "$tmp" "$1" "$2" 2>/dev/null | tail -n 2 | tr '\n' ' '
}
for c in "2 2 ok: d (2 checks fail) fails=0" "1 2 FAIL" "3 2 FAIL" "0 0 ok: d (0 checks fail) fails=0"; do
	read -r n w v <<<"$c"
	got=$(pf "$n" "$w")
	case $got in "$v"*) pass "planted_fails with $n of $w failing: ${got% }" ;;
	*) fail "planted_fails with $n of $w failing: want '$v...', got '$got'" ;; esac
done

want ok "none on nothing found" -- none "" d d
want FAIL "none on a line found" -- none "x.c:1: asm" d d
want ok "none_listed: a lister that finds nothing (status 0)" -- none_listed d d -- true
want FAIL "none_listed: a lister that lists (status 1)" -- none_listed d d -- sh -c 'echo x.c:1; exit 1'
want FAIL "none_listed: a lister that lists but exits 0" -- none_listed d d -- echo x.c:1
want FAIL "none_listed: a lister that breaks without a line (status 2)" -- none_listed d d -- sh -c 'echo parse broke >&2; exit 2'
want FAIL "none_listed: a lister that crashes (status 1, nothing listed)" -- none_listed d d -- python3 -c 'raise SystemExit(open("/nonexistent").read())'

want FAIL "has on a missing file" -- has "$none" . d
want FAIL "has on an empty file" -- has "$empty" . d
want FAIL "has without a match" -- has "$text" '^gamma$' d
want ok "has with a match" -- has "$text" '^b.ta$' d
want FAIL "hasnt on a missing file" -- hasnt "$none" gamma d
want FAIL "hasnt on an empty file" -- hasnt "$empty" gamma d
want FAIL "hasnt with a match (a regex)" -- hasnt "$text" 'a.p' d
want ok "hasnt without a match" -- hasnt "$text" gamma d
want FAIL "contains on an empty file" -- contains "$empty" alpha d
want FAIL "contains without the string (fixed, not a regex)" -- contains "$text" 'a.p' d
want ok "contains with the string" -- contains "$text" lph d
want FAIL "lacks on a missing file" -- lacks "$none" gamma d
want FAIL "lacks on an empty file" -- lacks "$empty" gamma d
want FAIL "lacks with the string" -- lacks "$text" eta d
want ok "lacks without the string (fixed, not a regex)" -- lacks "$text" 'a.p' d
want FAIL "count_is with another count" -- count_is "$text" a 1 d
want ok "count_is with that count" -- count_is "$text" a 2 d
want FAIL "count_is 0 on an empty file" -- count_is "$empty" gamma 0 d
want FAIL "count_is 0 on a missing file" -- count_is "$none" gamma 0 d
want ok "count_is 0 on a file without a match" -- count_is "$text" gamma 0 d

# ---- the report's verdict ---------------------------------------------------------------------
if [ -x "$(report_tool)" ]; then
	cp "$fix/native.log" "$fix/cut-last-line.log" "$fix/qemu-tcg.log" "$tmp/"
	want FAIL "complete on an empty log" -- complete "$empty" d
	want FAIL "complete on a cut log" -- complete "$tmp/cut-last-line.log" d
	want ok "complete on a complete log" -- complete "$tmp/native.log" d
	want FAIL "complete EXIT_OK on a log with FAIL/ERROR records" -- complete "$tmp/qemu-tcg.log" d
	want ok "complete EXIT_FAILS on a log with FAIL/ERROR records" -- complete "$tmp/qemu-tcg.log" d EXIT_FAILS
	want FAIL "complete with a bare number" -- complete "$tmp/qemu-tcg.log" d 1
	want FAIL "ran: status 1 and an empty log (what /bin/false leaves)" -- ran EXIT_FAILS 1 "$empty" d
	want FAIL "ran: status 0 and an empty log (/bin/true)" -- ran EXIT_OK 0 "$empty" d
	want FAIL "ran: status 0 and a cut log" -- ran EXIT_OK 0 "$tmp/cut-last-line.log" d
	want FAIL "ran: status 1, the log complete without FAIL" -- ran EXIT_FAILS 1 "$tmp/native.log" d
	want FAIL "ran: another status" -- ran EXIT_OK 1 "$tmp/native.log" d
	want FAIL "ran: a bare number" -- ran 0 0 "$tmp/native.log" d
	want ok "ran: status 0 and a complete log" -- ran EXIT_OK 0 "$tmp/native.log" d

	# qboot through qemu/run, with a stand-in qemu/run in a copy of the tree: it copies the log
	# $FAKE_LOG to its --log, notes its arguments, reports qemu/run's timing line, exits $FAKE_ST.
	tree_copy "$tmp/q" lib/status.h lib/sh tests/lib.sh
	mkdir -p "$tmp/q/qemu"
	# shellcheck disable=SC2016  # the stand-in's own variables
	printf '%s\n' '#!/bin/bash' 'echo "$*" >"$FAKE_ARGS"' \
		'while [ $# -gt 0 ]; do [ "$1" = --log ] && cp "$FAKE_LOG" "$2"; shift; done' \
		'[ -n "${FAKE_QUIET:-}" ] || echo "qemu/run: first BEGIN after 1.50 s; QEMU ran 9.25 s" >&2' \
		'exit "$FAKE_ST"' >"$tmp/q/qemu/run"
	chmod +x "$tmp/q/qemu/run"
	good=$fix/tcg-clock-tsc.log	# complete, clean, image.identity, "reboot: Power down"
	gid=$(grep -ao 'image\.identity=[0-9a-f]*' "$good" | head -n 1 | cut -d= -f2) || true
	# qb STATUS LOG ID TIMEOUT: qboot's verdict ("ok"/"FAIL") and its row, through the copy.
	qb() {
		# shellcheck disable=SC2016  # expanded by the inner shell
		FAKE_ST=$1 FAKE_LOG=$2 FAKE_ARGS=$tmp/q.args OUT=$tmp/q bash -c 'set -euo pipefail; . "$1/tests/lib.sh"; tmp=$2; id=$3
			qboot b qemu/run "$tmp/qb.log" "$4" --accel tcg; echo "row: ${boot_rows[0]}"' \
			_ "$tmp/q" "$tmp" "$3" "$4" 2>/dev/null | sed -n 's/^\(ok\|FAIL\):.*/\1/p; s/^row: *//p' | tr -s ' \n' '  '
	}
	cp "$(report_tool)" "$tmp/q/isobench-report"
	got=$(qb 0 "$good" "$gid" 120)
	case $got in "ok b ok 1.50 9.25 ") pass "qboot qemu/run: status 0, a clean log: ok, timed from qemu/run ($got)" ;;
	*) fail "qboot qemu/run on a clean boot: '$got'" ;; esac
	if [ "$(cat "$tmp/q.args")" = "--out $tmp/q --log $tmp/qb.log --timeout 120 --accel tcg" ]; then
		pass "qboot qemu/run passes --out, --log, --timeout and the boot's arguments"
	else fail "qboot qemu/run called qemu/run with: $(cat "$tmp/q.args")"; fi
	qb 0 "$good" "$gid" - >/dev/null
	if [ "$(cat "$tmp/q.args")" = "--out $tmp/q --log $tmp/qb.log --accel tcg" ]; then
		pass "qboot qemu/run with timeout -: qemu/run's own"
	else fail "qboot qemu/run with timeout -: $(cat "$tmp/q.args")"; fi
	got=$(FAKE_QUIET=1 qb 5 "$good" "$gid" 60)
	case $got in "FAIL b FAIL - - ") pass "qboot qemu/run: a failed boot without timing is a FAIL row with no times, under set -e" ;;
	*) fail "qboot qemu/run: a failed boot without qemu/run's timing line: '$got'" ;; esac
	for c in "5|$good|$gid|qemu/run's timeout status" "0|$fix/native.log|$gid|no power-off in the log" \
		"0|$good|0123|another image's identity" "0|$fix/cut-last-line.log|$gid|a cut log"; do
		IFS='|' read -r qst qlog qid what <<<"$c"
		got=$(qb "$qst" "$qlog" "$qid" 60)
		case $got in "FAIL b FAIL "*) pass "qboot qemu/run fails on $what" ;;
		*) fail "qboot qemu/run on $what: '$got'" ;; esac
	done
else
	skip "complete, ran and qboot: no $(report_tool) (run ./build.sh)"
fi

# ---- die (lib/sh/die.sh, through lib.sh) --------------------------------------------------------
# A script named some-tool.sh: "some-tool: MSG" and status 1; $die_prefix and $die_status override.
# shellcheck disable=SC2016  # the stand-in script's own $1
printf '#!/bin/bash\n. "%s"\neval "$1"\necho not reached\n' "$here/lib.sh" >"$tmp/some-tool.sh"
for c in "die went wrong|some-tool: went wrong|1" "die_prefix=build.sh die x|build.sh: x|1" \
	"die_status=2 die y|some-tool: y|2"; do
	IFS='|' read -r cmd want_err want_st <<<"$c"
	st=0
	err=$(bash "$tmp/some-tool.sh" "$cmd" 2>&1) || st=$?
	if [ "$err" = "$want_err" ] && [ "$st" -eq "$want_st" ]; then pass "die: '$cmd' says '$err', status $st"
	else fail "die: '$cmd' said '$err' with status $st, want '$want_err', $want_st"; fi
done

# ---- helpers once: lib.sh's are not redefined by a test, lib/sh's nowhere ------------------------
# once_judge ROOT LABEL: no tests/*.sh under ROOT defines a function lib.sh defines; no shell
# script under ROOT outside lib/sh/ defines a function a lib/sh/*.sh file defines (die,
# cmdline_words, exit_statuses, ...: each has that one owner; kernel-config/build-kernel.sh
# excepted: its inputs key the kernel cache, so it keeps its own die()).
once_judge() {
	local root=$1 label=$2 libfns shfns re
	libfns=$(sed -nE 's/^([a-z_][a-z0-9_]*)\(\).*/\1/p' "$root/tests/lib.sh" | sort -u | paste -sd'|')
	re="^[[:space:]]*($libfns)[[:space:]]*\\(\\)"
	none "$(cd "$root" && grep -nE "$re" tests/*.sh | grep -v '^tests/lib\.sh:')" \
		"$label: no test script redefines one of lib.sh's $(tr '|' '\n' <<<"$libfns" | wc -l) functions" \
		"$label: a test script redefines a lib.sh function"
	shfns=$(sed -nE 's/^([a-z_][a-z0-9_]*)\(\).*/\1/p' "$root"/lib/sh/*.sh | sort -u | paste -sd'|')
	[ -n "$shfns" ] || fail "$label: no function found in $root/lib/sh/*.sh"
	none "$(cd "$root" && git ls-files -co --exclude-standard | grep -vE '^lib/sh/|^kernel-config/build-kernel\.sh$' |
		while read -r f; do
			[ -f "$f" ] && case $f in *.sh) ;; *) head -c 64 "$f" | grep -qE '^#!.*\b(ba)?sh\b' || continue ;; esac
			grep -nE "^[[:space:]]*($shfns)[[:space:]]*\\(\\)" "$f" | sed "s|^|$f:|"
		done)" "$label: lib/sh's $(tr '|' '\n' <<<"$shfns" | wc -l) functions ($(tr '|' ' ' <<<"$shfns")) are defined there alone" \
		"$label: a lib/sh function defined again"
}
once_judge "$here/.." tree
git -C "$here/.." ls-files -co --exclude-standard | grep -E '^(tests/|lib/|image/|qemu/|build\.sh)' |
	(cd "$here/.." && cpio -pdm --quiet "$tmp/t3")
git init -q "$tmp/t3" && git -C "$tmp/t3" add -A
# shellcheck disable=SC2016  # planted code
printf '\nsha256_of() { md5sum "$1"; }\n' >>"$tmp/t3/tests/test-disk.sh"
printf '\ndie() { echo "x: $*"; exit 1; }\n' >>"$tmp/t3/image/build-iso.sh"
# shellcheck disable=SC2016  # planted code
printf '\ncmdline_words() { grep -v "^#" "$1"; }\n' >>"$tmp/t3/qemu/lib/image.sh"
planted_fails once_judge "$tmp/t3" 2 "a lib.sh function redefined and lib/sh's die() and cmdline_words() again are found"
if grep -q 'image/build-iso.sh:[0-9]*:die()' "$tmp/planted.out" && grep -q 'qemu/lib/image.sh:[0-9]*:cmdline_words()' "$tmp/planted.out"
then pass "once_judge names both lib/sh functions defined again"
else fail "once_judge did not name both: $(tr '\n' '|' <"$tmp/planted.out")"; fi

# ---- mklog and rendered -------------------------------------------------------------------------
# mklog: the program's bodies sealed at their sequence numbers, counting from 1 again after a
# blank line; a failing program is a failing mklog.
mklog "$tmp/mk.log" x <<'EOF'
import sys
assert sys.argv[2] == "x"
print("BEGIN run=1\nEND records=1\n\nBEGIN run=2")
EOF
if [ "$(cut -d' ' -f2,3 "$tmp/mk.log" | tr '\n' '|')" = "1 BEGIN|2 END|1 BEGIN|" ] &&
	[ "$(sed -n 3p "$tmp/mk.log")" = "@isobench/1 1 BEGIN run=2 *$(printf '@isobench/1 1 BEGIN run=2' | gzip -c | tail -c 8 | od -An -tx4 -N4 | tr -d ' ')" ]
then pass "mklog: sealed records (gzip's CRC-32 agrees), counting from 1 again after a blank line"
else fail "mklog wrote: $(tr '\n' '|' <"$tmp/mk.log")"; fi
st=0
mklog "$tmp/mk2.log" <<<'raise SystemExit(3)' || st=$?
if [ "$st" -ne 0 ]; then pass "mklog: a failing program fails it (status $st)"; else fail "mklog: a failing program gave status 0"; fi
# rendered: a PNG of one colour (blank), a missing one, and one drawn in many colours.
python3 - "$tmp" <<'EOF'
import struct, sys, zlib
def png(path, w, h, pixel):
    raw = b"".join(b"\0" + b"".join(bytes(pixel(x, y)) for x in range(w)) for y in range(h))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
png(sys.argv[1] + "/blank.png", 40, 40, lambda x, y: (255, 255, 255))
png(sys.argv[1] + "/drawn.png", 40, 40, lambda x, y: (0, 0, 0) if x == y else (255, 200 + x, 200 + y))
EOF
want FAIL "rendered: a blank page" -- rendered "$tmp/blank.png" d
want FAIL "rendered: no screenshot at all" -- rendered "$tmp/none.png" d
want ok "rendered: a picture in many colours, a little dark" -- rendered "$tmp/drawn.png" d

# ---- one preamble: every test script begins "set -euo pipefail" (tests/lib.sh's rule) ---------
# preamble_judge ROOT LABEL: each tests/*.sh under ROOT but lib.sh (the suites, tests/run's
# opt-in ones too) has "set -euo pipefail" as its first line after the header comment; one
# FAIL per script that begins otherwise, one pass when none does.
preamble_judge() {
	local root=$1 label=$2 f first n=0 bad=0
	for f in "$root"/tests/*.sh; do
		[ "${f##*/}" != lib.sh ] || continue
		n=$((n + 1))
		first=$(grep -m1 -vE '^[[:space:]]*(#.*)?$' "$f" || true)
		[ "$first" != "set -euo pipefail" ] || continue
		fail "$label: ${f#"$root"/} begins '$first', not 'set -euo pipefail' (tests/lib.sh's rule)"
		bad=$((bad + 1))
	done
	[ "$bad" -ne 0 ] || [ "$n" -eq 0 ] || pass "$label: all $n test scripts begin set -euo pipefail"
	[ "$n" -ne 0 ] || fail "$label: no test script under $root/tests"
}
preamble_judge "$here/.." tree
# Planted: one script back on the old set -uo, one with set -eu (no pipefail), one whose set
# comes after a command.
tree_copy "$tmp/t4" tests
sed -i '0,/^set -euo pipefail$/s//set -uo pipefail/' "$tmp/t4/tests/test-house.sh"
sed -i '0,/^set -euo pipefail$/s//set -eu/' "$tmp/t4/tests/test-pct.sh"
sed -i '0,/^set -euo pipefail$/s//export LC_ALL=C\n&/' "$tmp/t4/tests/test-fleet.sh"
planted_fails preamble_judge "$tmp/t4" 3 "three scripts with another preamble are found"
# Under set -e three spellings end a script at a check instead of running it: a count taken bare,
# n=$(grep -c ...) (no match is the count "0" with status 1: the script stops before the check
# says "got 0", and every check after it is lost), a status read as "$?" after a bare command
# (a failing command has already ended the script, so the check only ever sees 0), and a value
# picked bare, v=$(grep ... | sed ...) (grep or pgrep picking nothing is status 1, and under
# pipefail from anywhere in the pipeline: the script stops at the assignment, before the check
# that would say what it got). The last is found as a statement (lines ending in | or \ joined)
# assigning a $(...) that runs grep or pgrep, without || and outside local/if/while (whose
# status does not stop the script). An assignment from any other command (the report tool,
# python3 over its output) is the same kind when its value is judged, but nothing in its text
# tells a judged value from a setup step whose failure should stop the script (top=$(cd ..),
# a port from python3): those are found by reading, not here.
# bare_stops ROOT LABEL: one FAIL per such line of ROOT's tests/*.sh (lib.sh too).
bare_stops() {
	local root=$1 label=$2 got
	got=$(
		cd "$root" || exit 1
		grep -nE '^[^#]*\b[A-Za-z_][A-Za-z0-9_]*=\$\(.*\bgrep( +-[A-Za-z0-9]+)* +-[A-Za-z]*c[A-Za-z]*\b' \
			tests/*.sh | grep -v '||' | sed 's/$/ (a bare count: add || true)/'
		grep -nE '^[^#]*\bstatus_is +[A-Z_]+ +"?\$\?' tests/*.sh | sed 's/$/ (a status read bare: cmd || st=$?)/'
		# shellcheck disable=SC2016 # the $ are awk's and the patterns'
		awk 'FNR == 1 { s = "" }
			{ if (s == "") at = FNR; s = s (s == "" ? "" : " ") $0 }
			/[|\\][[:space:]]*$/ { next }
			s ~ /^[^#]*(^|[^A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*=\$\(/ && s !~ /\|\|/ &&
			s !~ /^[[:space:]]*(local|if|elif|while|until)[[:space:]]/ &&
			s ~ /\$\(([^#]*[^A-Za-z0-9_-])?p?grep[[:space:]]/ {
				print FILENAME ":" at ":" substr(s, 1, 120) " (a value picked bare: add || true)" }
			{ s = "" }' tests/*.sh
		true	# a grep that finds nothing: no line, no failure
	)
	none "$got" "$label: no test script takes a count or a status bare under set -e" "$label"
}
bare_stops "$here/.." tree
# Planted: a count taken bare again (test-ring0's), and lib.sh's boot status read as "$?".
tree_copy "$tmp/t5" tests
# shellcheck disable=SC2016 # the $ are sed's and the scripts' own
sed -i 's/^\(n=$(grep -acE .* "$tmp\/tcg2.log"\) || true)\t# none: "0", status 1$/\1)/' "$tmp/t5/tests/test-ring0.sh"
# shellcheck disable=SC2016 # the same
sed -i 's/^\t\tstatus_is EXIT_OK "$st" "the $name boot powered off"$/\t\tstatus_is EXIT_OK "$?" "the $name boot powered off"/' \
	"$tmp/t5/tests/lib.sh"
# And a value picked bare again, over two lines (test-html's marks, the spot that ended the
# script before its check).
sed -i 's/^\(\tsed .*tr .\\n. . . | sed .s\/ \$\/\/.)\) || true$/\1/' "$tmp/t5/tests/test-html.sh"
planted_fails bare_stops "$tmp/t5" 1 "a bare count, a bare status and a bare pick are found"
if grep -q 'tests/test-ring0.sh:[0-9]*:n=[$](grep -acE .*bare count' "$tmp/planted.out" &&
	grep -q 'tests/lib.sh:[0-9]*:.*status_is EXIT_OK "[$]?".*status read bare' "$tmp/planted.out" &&
	grep -q 'tests/test-html.sh:[0-9]*:got=[$](grep -o .class="n unconv.*value picked bare' "$tmp/planted.out"
then pass "bare_stops names the three planted lines"
else fail "bare_stops did not name all three: $(tr '\n' '|' <"$tmp/planted.out")"; fi
if [ "$(printf 'abc' >"$tmp/abc"; sha256_of "$tmp/abc")" = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad ] &&
	! sha256_of "$none" 2>/dev/null; then pass "sha256_of: the hash of 'abc'; status 1 for a missing file"
else fail "sha256_of: wrong hash of 'abc' or no failure on a missing file"; fi

# ---- seed_objs (a build in a copy starts from out/'s objects) ------------------------------------
# A stand-in of payload/Makefile's rules (objects in $(O)/obj/ from %.c, a .d per object naming
# its headers, as -MMD writes it): built in FROM, the tree copied with its times and a header
# changed in the copy; seeded from FROM, make in the copy recompiles exactly the object that
# includes the header (its .d retargeted to TO) and relinks; from a FROM without a built
# runner, nothing is seeded.
so=$tmp/seed
mkdir -p "$so/src"
# shellcheck disable=SC2016  # the Makefile's own $
{
	printf 'O ?= .\n$(O)/isobench: $(O)/obj/a.o $(O)/obj/b.o\n\tcat $^ >$@\n\tchmod +x $@\n'
	printf '$(O)/obj/%%.o: %%.c Makefile\n\t@mkdir -p $(dir $@)\n\techo $< >>$(O)/compiled\n'
	printf '\tcat $< >$@\n\tprintf "%%s: %%s\\n" $@ "$<$(if $(findstring a,$<), h.h)" >$(@:.o=.d)\n'
	printf -- '-include $(O)/obj/a.d $(O)/obj/b.d\n'
} >"$so/src/Makefile"
echo a >"$so/src/a.c"; echo b >"$so/src/b.c"; echo h >"$so/src/h.h"
touch -d 2020-01-01 "$so/src/"*
if make -s -C "$so/src" O="$so/from" >/dev/null 2>&1 && cp -a "$so/src" "$so/copy" && touch "$so/copy/h.h" &&
	seed_objs "$so/from" "$so/to" && make -s -C "$so/copy" O="$so/to" >/dev/null 2>&1; then
	got=$(tr '\n' ' ' <"$so/to/compiled" 2>/dev/null)
	if [ "$got" = "a.c " ] && [ -x "$so/to/isobench" ] && ! grep -q "$so/from" "$so/to/obj/a.d"; then
		pass "seed_objs: a header changed in the copy recompiles what includes it, only that, and relinks"
	else fail "seed_objs: the copy's make compiled '$got' (want 'a.c '), or a.d still names FROM"; fi
else fail "seed_objs: the stand-in build, copy or seeding failed"; fi
rm "$so/from/isobench"
if seed_objs "$so/from" "$so/none" && [ ! -e "$so/none" ]; then pass "seed_objs: FROM without a built runner seeds nothing"
else fail "seed_objs: seeded from a FROM without its runner"; fi

# ---- start_peer, stop_peer ----------------------------------------------------------------------
# A stand-in for `isobench --serve`: prints a serve.port record (or nothing) and waits.
printf '#!/bin/sh\necho "@isobench/1 5 INFO serve.port=4711 *00000000"\nexec sleep 300\n' >"$tmp/peer-ok"
printf '#!/bin/sh\nexec sleep 300\n' >"$tmp/peer-mute"
chmod +x "$tmp/peer-ok" "$tmp/peer-mute"
# shellcheck disable=SC2016  # expanded by the inner shell
got=$(bash -c '. "$1"; tmp=$2; bin=$3; start_peer t; p=$peer_pid; stop_peer
	kill -0 "$p" 2>/dev/null && echo "alive"; echo "port=$peer_port pid=$peer_pid"' _ "$here/lib.sh" "$tmp" "$tmp/peer-ok")
if [ "$got" = "port=4711 pid=" ]; then pass "start_peer reads the port of serve.port; stop_peer kills and clears peer_pid"
else fail "start_peer/stop_peer: got '$(tr '\n' '|' <<<"$got")'"; fi
# shellcheck disable=SC2016
got=$(bash -c '. "$1"; tmp=$2; bin=$3; start_peer t; echo "port=$peer_port"; stop_peer' _ "$here/lib.sh" "$tmp" "$tmp/peer-mute")
if [ "$got" = "port=" ]; then pass "start_peer: no serve.port record within 5 s leaves peer_port empty"
else fail "start_peer with a mute peer: got '$got'"; fi

# ---- arm64_bg_wanted (lib/sh/arm64bg.sh: build.sh's and tests/run's one rule) ---------------------
# shellcheck source=../lib/sh/arm64bg.sh
. "$here/../lib/sh/arm64bg.sh"
got=''
for args in '' 'arm64' 'unit arm64' 'unit' 'arm64 unit' 'unit arm64-matrix'; do
	# shellcheck disable=SC2086 # the words are the suites
	if ISOBENCH_ARM64_BG=1 arm64_bg_wanted $args; then got+="[$args]=y "; else got+="[$args]=n "; fi
done
ISOBENCH_ARM64_BG=0 arm64_bg_wanted unit arm64 && got+="off=y" || got+="off=n"
if [ "$got" = "[]=y [arm64]=n [unit arm64]=y [unit]=n [arm64 unit]=n [unit arm64-matrix]=n off=n" ]; then
	pass "arm64_bg_wanted: every suite, or arm64 after another, builds in the background; arm64 first, none, or ISOBENCH_ARM64_BG=0 do not"
else fail "arm64_bg_wanted: $got"; fi
if ! grep -q 'ISOBENCH_ARM64_BG:-1' "$here/../build.sh" "$here/run"; then pass "build.sh and tests/run decide it only through arm64_bg_wanted"
else fail "build.sh or tests/run reads ISOBENCH_ARM64_BG itself: $(grep -n 'ISOBENCH_ARM64_BG:-1' "$here/../build.sh" "$here/run" | head -n 2)"; fi

# ---- use_tmp, at_exit, kill_at_exit -------------------------------------------------------------
# shellcheck disable=SC2016  # expanded by the inner shell
own=3 # the inner script's own status, none of lib/status.h's meanings
st=0
out=$(bash -c 'set -e; . "$1"; use_tmp; echo "$tmp"; at_exit echo registered first
	at_exit echo registered last; at_exit false; exit "$2"' _ "$here/lib.sh" "$own") || st=$?
dir=$(head -n 1 <<<"$out")
if [ "$st" -eq "$own" ]; then pass "at_exit keeps the script's status, with set -e and a failing hook ($own)"
else fail "at_exit changed the script's status: $own became $st"; fi
if [ "$(sed -n '2,3p' <<<"$out" | tr '\n' '|')" = "registered last|registered first|" ]; then
	pass "at_exit runs the last registered first"
else fail "at_exit order: $(tr '\n' '|' <<<"$out")"; fi
if [ -n "$dir" ] && [ ! -e "$dir" ]; then pass "use_tmp's directory is gone at exit"
else fail "use_tmp's directory '$dir' is still there (or none was made)"; fi
sleep 300 &
victim=$!
# shellcheck disable=SC2016
st=0
bash -c '. "$1"; use_tmp; ids=("" "$2"); kill_at_exit ids; exit 0' _ "$here/lib.sh" "$victim" || st=$?
gone=1
for _ in $(seq 20); do kill -0 "$victim" 2>/dev/null || { gone=0; break; }; sleep 0.1; done
if [ "$gone" -eq 0 ] && [ "$st" -eq 0 ]; then pass "kill_at_exit kills the ids its array holds, skips an empty one"
else fail "kill_at_exit: process $victim still runs (status $st)"; kill "$victim" 2>/dev/null || true; fi
wait "$victim" 2>/dev/null || true	# killed: its status is SIGTERM's

# ---- timing_done (tests/run's schedule) ---------------------------------------------------------
# Inside tests/run: the file named by ISOBENCH_TIMING_DONE appears and ISOBENCH_RUN_PID gets
# SIGUSR1; outside (neither set): nothing, status 0.
# shellcheck disable=SC2016  # the stand-in's own $1 and $!
got=$(bash -c 'trap "echo got USR1; kill \$w; exit 0" USR1; sleep 10 & w=$!
	ISOBENCH_TIMING_DONE=$1/timing.done ISOBENCH_RUN_PID=$$ bash -c ". \"\$1\"; timing_done" _ "$2"
	wait "$w"; echo "no USR1"' _ "$tmp" "$here/lib.sh")
if [ "$got" = "got USR1" ] && [ -f "$tmp/timing.done" ]; then pass "timing_done: its file made, SIGUSR1 to tests/run"
else fail "timing_done: '$got', file $(ls "$tmp/timing.done" 2>&1)"; fi
st=0
# shellcheck disable=SC2016
env -u ISOBENCH_TIMING_DONE -u ISOBENCH_RUN_PID bash -c '. "$1"; timing_done' _ "$here/lib.sh" || st=$?
status_is EXIT_OK "$st" "timing_done outside tests/run does nothing"

finish
