#!/usr/bin/env bash
# tests/test-journey-clouds.sh — journey (b), two instance types (docs/journeys/
# two-instance-types.md, issue 48 item 3), walked with two imitated clouds:
#   - "aws": qemu/run --cloud aws, the user data of the journey (its suite, isobench.repeat=3:
#     three replicates in one launch), collected from the console (the serial log);
#   - "gce": qemu/run --cloud gce with the same user data and a peer started with --store DIR
#     on this host (the guest's 169.254.0.100), collected from the peer's store: one file per
#     run;
#   - the comparison with labels, a side of three runs each (the console's three, the store's
#     three files): ratio and one of three answers per test, status 0 or 4 (EXIT_DIFFERS);
#   - a cross-architecture comparison (an x86-64 run beside an arm64 one, fixtures) is made,
#     not refused, with a note that it compares the machines.
# In: $OUT (bzImage, initramfs, IDENTITY, isobench, isobench-report), qemu-system-x86_64,
# socat (qemu/run --cloud), python3. Out: one line per assertion, then "N passed, M failed,
# K skipped". Exit 1 on a failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
bin=$out/isobench
rep=$out/isobench-report
fix=$top/tests/fixtures/logs
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
kill_at_exit peer_pid

# ---- Graviton beside x86: a machine comparison, with a note ----------------------------------------
st=0
"$rep" --label x86-instance,arm-instance "$fix/native.log" "$fix/arm64-tcg.log" >"$tmp/xarch" 2>&1 || st=$?
if [ "$st" -eq "$EXIT_OK" ] || [ "$st" -eq "$EXIT_DIFFERS" ]; then pass "x86_64 beside aarch64: compared, not refused (status $st)"
else fail "x86_64 beside aarch64: status $st: $(head -n 2 "$tmp/xarch" | tr '\n' '|')"; fi
contains "$tmp/xarch" "note: a machine comparison: x86-instance is x86_64 and arm-instance is aarch64" \
	"the note says it is a machine comparison"

# ---- two imitated clouds ------------------------------------------------------------------------
if [ ! -f "$out/bzImage" ] || ! command -v qemu-system-x86_64 >/dev/null || ! command -v socat >/dev/null; then
	skip "the boots: no $out/bzImage, qemu-system-x86_64 or socat"
	finish
	exit $?
fi
id=$(head -n 1 "$out/IDENTITY")
mkdir -p "$tmp/store"
start_peer p1 --store "$tmp/store"
[ -n "$peer_port" ] || fail "the peer did not start: $(head -c 300 "$tmp/p1.peer.err")"
# The journey's user data (params.txt), made small: two tests, one pass, three runs.
printf '%s\n' "# isobench parameters" "isobench.suite=quick isobench.tests=getpid,syscall" \
	"isobench.copies=1 isobench.repeat=3" >"$tmp/params.txt"
cp "$tmp/params.txt" "$tmp/gce.txt"
echo "isobench.peer=169.254.0.100:$peer_port" >>"$tmp/gce.txt"
small=(--direct --accel tcg --cpus 1 --nic virtio --suite quick --copies 1 --tests getpid)
qboot aws qemu/run "$tmp/aws.log" 600 "${small[@]}" --cloud aws --user-data "$tmp/params.txt"
qboot gce qemu/run "$tmp/gce-console.log" 600 "${small[@]}" --cloud gce --user-data "$tmp/gce.txt" \
	--peer "127.0.0.1:$peer_port"
stop_peer
count_is "$tmp/aws.log" '^@isobench/1 [0-9]+ INFO .*run\.repeat=3 run\.replicate=[123]( |\*)' 3 \
	"aws: the user data's isobench.repeat=3 gave three runs in one launch"
mapfile -t stored < <(find "$tmp/store" -name '*.log' | sort)
if [ "${#stored[@]}" -eq 3 ]; then pass "gce: the peer's store holds the three runs' logs"
else fail "gce: the peer's store holds ${#stored[@]} logs, want 3"; fi
st=0
"$rep" --label aws,gce,gce,gce "$tmp/aws.log" "${stored[@]}" >"$tmp/table" 2>&1 || st=$?
if [ "$st" -eq "$EXIT_OK" ] || [ "$st" -eq "$EXIT_DIFFERS" ]; then pass "aws beside gce: compared (status $st)"
else fail "aws beside gce: status $st: $(tail -n 3 "$tmp/table" | tr '\n' '|')"; fi
cat "$tmp/table"
has "$tmp/table" '^side 1: aws, 3 run\(s\)' "side 1 is aws: three runs from one launch's console"
has "$tmp/table" '^side 2: gce, 3 run\(s\)' "side 2 is gce: the store's three files"
count_is "$tmp/table" '^System Call Overhead( \(getpid\))? +1 gce +3\+3 welch-t .*(different|equivalent|undecided)' 2 \
	"each test has its ratio's interval and one of the three answers"
has "$tmp/table" '^isobench-report: compared 2 sides of 3, 3 runs: ' "the closing line: 3 + 3 runs"
has "$tmp/aws.log" 'INFO .*cloud\.provider=aws' "the aws side says its cloud"
has "${stored[0]}" 'INFO .*cloud\.provider=gce' "a stored gce run says its cloud"
finish
