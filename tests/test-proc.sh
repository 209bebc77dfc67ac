#!/usr/bin/env bash
# tests/test-proc.sh — isobench-proc, the program the execl and spawn tests execute.
#
# In:  OUT/isobench-proc (OUT defaults to the repository's out/).
# Out: one line per assertion, then "N passed, M failed".  Errors: exit 1 on any failure.
# Checks its linkage (a glibc PIE with a loader), every mode's work and exit status, the
# spawn-serve protocol (8-byte counts in, 8-byte 0 per batch out, exit 0 at end of input)
# and its usage errors.
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
