#!/usr/bin/env bash
# tests/test-qemu-run.sh — qemu/run's logic without booting: options, start failures, judgement.
#
# In:  qemu/run; hand-made serial logs written here (records carry dummy checksums, which the
#      built-in check does not verify); a fake isobench-report for the report-tool path.
# Out: one line per assertion, then "N passed, M failed".
# Errors: exits 1 if any assertion failed.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
run=$here/qemu/run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 last=

# expect STATUS DESCRIPTION -- COMMAND...: the command must exit with exactly STATUS.
expect() {
	local want=$1 what=$2 got=0
	shift 3
	"$@" >"$tmp/stdout" 2>"$tmp/stderr" || got=$?
	if [ "$got" -eq "$want" ]; then
		echo "ok: $what (status $got)"
		pass=$((pass + 1)) last=ok
	else
		echo "FAIL: $what: want status $want, got $got; stderr: $(head -n 3 "$tmp/stderr" | tr '\n' '|')"
		fail=$((fail + 1)) last=bad
	fi
}
# expect_msg REGEX DESCRIPTION: the last command's stderr must match (every non-zero status
# comes with a line saying what went wrong).
expect_msg() {
	if grep -Eq "$1" "$tmp/stderr"; then
		echo "ok: $2"
		pass=$((pass + 1))
	else
		echo "FAIL: $2: stderr has no line matching '$1'"
		fail=$((fail + 1))
	fi
}

# The harness itself must be able to fail: a wrong expectation has to count as a failure.
expect 0 "meta" -- false >/dev/null
if [ "$last" = bad ]; then
	fail=$((fail - 1))
	echo "ok: expect() detects a wrong status"; pass=$((pass + 1))
else
	pass=$((pass - 1))
	echo "FAIL: expect() accepted a wrong status"; fail=$((fail + 1))
fi

empty=$tmp/empty-out
mkdir -p "$empty"

# --- usage errors: 2 -----------------------------------------------------------------------
expect 2 "unknown option" -- "$run" --bogus
expect_msg "^qemu/run: unknown option '--bogus'" "unknown option is named"
expect 2 "--cpus not a number" -- "$run" --cpus two
expect 2 "--cpus 0" -- "$run" --cpus 0
expect 2 "--accel invalid" -- "$run" --accel xen
expect 2 "--machine invalid" -- "$run" --machine arm
expect 2 "--machine microvm with the ISO" -- "$run" --machine microvm
expect 2 "--firmware invalid" -- "$run" --firmware efi
expect 2 "--medium invalid" -- "$run" --medium usb
expect 2 "--firmware uefi with --direct" -- "$run" --direct --firmware uefi
expect 2 "--medium disk with --pvh" -- "$run" --pvh --medium disk
expect 2 "--kernel without --direct" -- "$run" --kernel x
expect 2 "--suite invalid" -- "$run" --suite huge
expect 2 "--timeout invalid" -- "$run" --timeout 10s
expect 2 "--mem invalid" -- "$run" --mem lots
expect 2 "option without value" -- "$run" --iso
expect 2 "--tests with a space" -- "$run" --tests 'pipe spawn'
expect 2 "--iso with --direct" -- "$run" --direct --iso x.iso
expect 0 "--help" -- "$run" --help
if grep -q '^  5  timeout' "$tmp/stdout" && grep -q '^  7  could not start' "$tmp/stdout"; then
	echo "ok: --help documents the exit-status table"; pass=$((pass + 1))
else
	echo "FAIL: --help lacks the exit-status table"; fail=$((fail + 1))
fi

# --- could not start: 7 ----------------------------------------------------------------------
expect 7 "missing ISO" -- "$run" --iso "$tmp/nonexistent.iso" --accel tcg
expect_msg "^qemu/run: no ISO " "missing ISO is named"
expect 7 "missing vmlinux for --pvh" -- "$run" --pvh --out "$empty" --accel tcg
expect 7 "missing UEFI firmware" -- env OVMF_CODE="$tmp/none.fd" "$run" --firmware uefi --iso "$0" --accel tcg
expect 7 "missing default ISO in --out" -- "$run" --out "$empty" --accel tcg
expect 7 "--direct without a kernel" -- "$run" --direct --out "$empty" --accel tcg
expect_msg "^qemu/run: no .*/bzImage" "missing kernel is named"
expect 7 "--judge a missing log" -- "$run" --out "$empty" --judge "$tmp/nonexistent.log"

# --- built-in judgement (no isobench-report in --out) -------------------------------------------
# mklog NAME LINE...: a serial log with CRLF line ends and kernel noise around the records.
mklog() {
	local f=$tmp/$1.log
	shift
	{
		printf 'SeaBIOS (version 1.16.2-debian-1.16.2-1)\r\n'
		printf '[    0.000000] Linux version 6.1.0\r\n'
		for l in "$@"; do printf '%s\r\n' "$l"; done
	} >"$f"
	echo "$f"
}
R='@isobench/1'
good=(
	"$R 1 BEGIN run=0123456789abcdef version=t mode=init *00000000"
	"$R 2 INFO kernel.release=6.1 *00000000"
	"[    1.5] random: crng init done $R 3 TEST test=pipe k=1 n=1 copies=1 unit=lps *00000000"
	"$R 4 RESULT test=pipe copies=1 unit=lps value=1 samples=1 *00000000"
)
end="$R 5 END records=4 results=1 fails=0 skips=0 errors=0 status=ok *00000000"

judge() { "$run" --out "$empty" --judge "$1"; }
expect 0 "complete run (noise, CRLF, record after kernel text)" -- judge "$(mklog ok "${good[@]}" "$end")"
expect_msg "built-in check" "fallback says it is the built-in check"
expect 3 "missing END" -- judge "$(mklog noend "${good[@]}")"
expect_msg "no END" "missing END is named"
expect 3 "no records at all" -- judge "$(mklog none)"
expect_msg "no BEGIN" "missing BEGIN is named"
expect 6 "Kernel panic" -- judge "$(mklog panic "${good[@]}" \
	'[    2.0] Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b')"
expect_msg "crashed: Kernel panic" "panic is named"
expect 6 "Kernel panic after a complete run" -- judge "$(mklog panic2 "${good[@]}" "$end" \
	'[    9.0] Kernel panic - not syncing: Fatal exception')"
expect 6 "watchdog FAIL" -- judge "$(mklog wd "${good[@]}" \
	"$R 5 FAIL test=watchdog reason=stalled *00000000")"
expect 1 "complete run with a FAIL" -- judge "$(mklog failrec "${good[@]}" \
	"$R 5 FAIL test=spawn reason=crashed signal=11 *00000000" \
	"$R 6 END records=5 results=1 fails=1 skips=0 errors=0 status=ok *00000000")"
expect 1 "complete run with an ERROR" -- judge "$(mklog errrec "${good[@]}" \
	"$R 5 ERROR what=test reason=unknown test=nope *00000000" \
	"$R 6 END records=5 results=1 fails=0 skips=0 errors=1 status=ok *00000000")"
expect 3 "sequence gap (lost record)" -- judge "$(mklog gap "${good[0]}" "${good[1]}" "${good[3]}" "$end")"
expect_msg "expected record 3, got 4" "gap is named"
expect 3 "END count disagrees" -- judge "$(mklog count "${good[@]}" \
	"$R 5 END records=9 results=1 fails=0 skips=0 errors=0 status=ok *00000000")"
expect 3 "two runs in one boot log" -- judge "$(mklog twice "${good[@]}" "$end" "${good[@]}" "$end")"

# --- judgement through the report tool ---------------------------------------------------------
fake=$tmp/fake-out
mkdir -p "$fake"
fake_report() { # fake_report STATUS: an isobench-report that exits STATUS for --check
	cat >"$fake/isobench-report" <<EOF
#!/bin/sh
[ "\$1" = --check ] || exit 2
exit $1
EOF
	chmod +x "$fake/isobench-report"
}
ok_log=$tmp/ok.log
fake_report 0
expect 0 "report tool says 0" -- "$run" --out "$fake" --judge "$ok_log"
fake_report 1
expect 1 "report tool says 1 (FAIL records)" -- "$run" --out "$fake" --judge "$ok_log"
fake_report 3
expect 3 "report tool says 3" -- "$run" --out "$fake" --judge "$ok_log"
fake_report 42
expect 3 "report tool's unknown status becomes 3" -- "$run" --out "$fake" --judge "$ok_log"
fake_report 0
expect 6 "panic overrides the report tool's 0" -- "$run" --out "$fake" --judge "$tmp/panic2.log"
fake_report 1
expect 6 "watchdog FAIL overrides the report tool's 1" -- "$run" --out "$fake" --judge "$tmp/wd.log"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
