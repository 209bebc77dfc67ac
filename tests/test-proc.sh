#!/usr/bin/env bash
# tests/test-proc.sh — isobench-proc, the program the execl and spawn tests execute and the
# dhry2reg test runs Dhrystone in.
#
# In:  OUT/isobench-proc, OUT/isobench (OUT defaults to the repository's out/); musl-gcc and
#      the checkout's payload/proc (for the planted break below).
# Out: one line per assertion, then "N passed, M failed".  Errors: exit 1 on any failure.
# Checks its linkage (a glibc PIE with a loader), every mode's work and exit status, the
# spawn-serve protocol (8-byte counts in, 8-byte 0 per batch out, exit 0 at end of input),
# the dhry-serve protocol (8-byte 0 after the self-check, then 0 and a fold per batch), its
# usage errors, and that the runner's dhry2reg natively runs this glibc program (INFO
# exec.dhry2reg.*) and gives a RESULT. Shown to fail: the runner beside an isobench-proc built
# static against musl (planted) must fail that INFO check.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
p=$out/isobench-proc
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp

LC_ALL=C readelf -hlW "$p" >"$tmp/elf"
has "$tmp/elf" "Type: +DYN " "isobench-proc is position-independent"
has "$tmp/elf" "Requesting program interpreter: /lib64/ld-linux-x86-64\.so\.2" "glibc's loader"
LC_ALL=C readelf -dW "$p" >"$tmp/dyn"
has "$tmp/dyn" "NEEDED.*\[libc\.so\.6\]" "it needs glibc's libc.so.6"

st=0; "$p" || st=$?; status_is EXIT_OK "$st" "no arguments: exit 0 at once"
st=0; "$p" execl 200 || st=$?; status_is EXIT_OK "$st" "execl 200: a chain of 200 execs"
st=0; "$p" spawn 200 || st=$?; status_is EXIT_OK "$st" "spawn 200"
st=0; "$p" execl 12x 2>"$tmp/err" || st=$?; status_is EXIT_USAGE "$st" "a bad count is a usage error"
has "$tmp/err" "bad count '12x'" "and says which"
st=0; "$p" fly 3 2>"$tmp/err" || st=$?; status_is EXIT_USAGE "$st" "an unknown mode is a usage error"
st=0; "$p" execl 2>/dev/null || st=$?; status_is EXIT_USAGE "$st" "a missing count is a usage error"
# spawn-serve: two batches (3 and 5 loops), then end of input.
st=0
printf '\003\0\0\0\0\0\0\0\005\0\0\0\0\0\0\0' | "$p" spawn-serve >"$tmp/serve" || st=$?
status_is EXIT_OK "$st" "spawn-serve exits 0 at end of input"
if [ "$(od -An -tu8 "$tmp/serve" | tr -s ' \n' '  ')" = " 0 0 " ]; then
	ok "spawn-serve answers 0 for each of 2 batches"
else bad "spawn-serve answered '$(od -An -tu8 "$tmp/serve")'"; fi
# dhry-serve: the self-check's 0, then batches of 3 and 5 loops: 0 and a non-zero fold each.
st=0
printf '\003\0\0\0\0\0\0\0\005\0\0\0\0\0\0\0' | "$p" dhry-serve >"$tmp/dserve" || st=$?
status_is EXIT_OK "$st" "dhry-serve exits 0 at end of input"
if od -An -tu8 "$tmp/dserve" | tr -s ' \n' '  ' | grep -qE '^ 0 0 [1-9][0-9]* 0 [1-9][0-9]* $'; then
	ok "dhry-serve answers the self-check, then 0 and a fold for each of 2 batches"
else bad "dhry-serve answered '$(od -An -tu8 "$tmp/dserve" | tr -s ' \n' '  ')'"; fi
if nm "$p" | grep -qE ' T (dhry_loop|Proc_1|Func_2)$' && ! nm "$out/isobench" | grep -qE ' T dhry_loop$'; then
	ok "Dhrystone is in isobench-proc, not in the runner"
else bad "dhry_loop: in isobench-proc '$(nm "$p" | grep -c ' dhry_loop$')', in the runner '$(nm "$out/isobench" | grep -c ' dhry_loop$')'"; fi

# judge_native DIR TAG: DIR's runner runs dhry2reg in DIR's isobench-proc, a glibc PIE.
judge_native() {
	local d=$1 log
	log=$("$d/isobench" --tests dhry2reg --copies 1 --sample_ms 50 --samples 1 --tmpdir "$tmp" 2>&1) || true
	if grep -qE " INFO exec\.dhry2reg\.path=$d/isobench-proc exec\.dhry2reg\.linkage=dynamic-pie exec\.dhry2reg\.interp=/lib64/ld-linux-x86-64\.so\.2 exec\.dhry2reg\.libc=glibc%20[0-9.]+ " <<<"$log"; then
		pass "$2: dhry2reg runs $d/isobench-proc, a glibc PIE"
	else fail "$2: dhry2reg's program: $(grep -o 'INFO exec\.dhry2reg[^*]*' <<<"$log" || echo none)"; fi
	if grep -qE " RESULT test=dhry2reg copies=1 .* value=[0-9]*[1-9][0-9]*\." <<<"$log"; then
		pass "$2: dhry2reg gives a RESULT"
	else fail "$2: dhry2reg gave no RESULT: $(grep -E 'SKIP|FAIL|ERROR' <<<"$log" | head -n 2)"; fi
}
judge_native "$out" native
# Planted: the same Dhrystone built static against musl beside the runner.
mkdir -p "$tmp/planted"
cp "$out/isobench" "$tmp/planted/"
if make -s -C "$top/payload/proc" O="$tmp/planted" CC=musl-gcc LDFLAGS="-static -Wl,-T,dhry-layout.ld" \
	>"$tmp/planted.make" 2>&1; then
	planted() { judge_native "$tmp/planted" planted; }
	planted_fails planted "$tmp/planted" 1 "a musl-static isobench-proc fails the glibc check"
else bad "could not build the planted musl isobench-proc: $(tail -n 2 "$tmp/planted.make")"; fi

# It really forks: 300 loops must create about 300 processes (pid counter moves by >= 300).
# shellcheck disable=SC2016  # $$ is the child shell's
a=$(sh -c 'echo $$')
"$p" spawn 300
# shellcheck disable=SC2016
b=$(sh -c 'echo $$')
[ "$b" -ge "$a" ] || b=$((b + $(cat /proc/sys/kernel/pid_max)))	# the counter wrapped
if [ $((b - a)) -ge 300 ]; then ok "spawn 300 made >= 300 processes (pids $a -> $b)"
else bad "spawn 300 moved the pid counter by $((b - a)) only"; fi
finish
