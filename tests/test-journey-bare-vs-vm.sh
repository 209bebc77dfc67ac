#!/usr/bin/env bash
# tests/test-journey-bare-vs-vm.sh — journey (a), bare metal against a VM on it
# (docs/journeys/bare-vs-vm.md, issue 48 item 2), walked here with two TCG guests standing in
# for the two sides, each with its own parameter set:
#   - "bare": a copy of the image written as a USB stick (usb-storage on xHCI), booted with the
#     bare-metal menu entry's own words (image/isolinux.cfg LABEL baremetal: isobench.repeat=3,
#     isobench.replay=1; isobench.halt=wait left out, nobody presses Enter here) on a smaller
#     suite; its results are read straight off the stick as a read-only block device
#     (losetup -r: `isobench-report --check /dev/loopN`), else off the stick's file;
#   - "vm": qemu/run sized as the stand-in host (--cpus 2 --mem 1G), the same suite with
#     isobench.repeat=3, its serial log;
#   - the comparison with labels: the table holds bare, vm, the ratio and one of the three
#     answers per test, 3 + 3 replicates, status 0 or 4 (EXIT_DIFFERS), and no comparability
#     warning: the bare entry's capture words (isobench.replay, isobench.halt, isobench.delay,
#     isobench.console) are harmless to a comparison — shown on a fixture too (a log's
#     kernel.cmdline given the bare entry's words, resealed: no "kernel.cmdline differs").
# Both guests boot the kernel directly (one short boot each); the ISO's menu path is
# tests/test-iso.sh's. In: $OUT (isobench.iso, bzImage, initramfs, IDENTITY, isobench-report),
# qemu-system-x86_64, losetup (optional). Out: one line per assertion, then "N passed, M failed,
# K skipped". Exit 1 on a failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
rep=$out/isobench-report
fix=$top/tests/fixtures/logs
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp

# ---- the capture words are harmless (a fixture, no boot) -----------------------------------------
# The bare entry's isobench.* words that are not the suite's, from image/isolinux.cfg itself.
capture=$(sed -n '/^LABEL baremetal/,/^LABEL/s/^ *APPEND //p' "$top/image/isolinux.cfg" | tr ' ' '\n' |
	grep -E '^isobench\.(replay|halt|delay|console)=' | tr '\n' ' ') || true
case $capture in *isobench.replay=1*isobench.halt=wait*) pass "the bare entry's capture words: $capture" ;;
*) fail "the bare entry's capture words not found in image/isolinux.cfg: '$capture'" ;; esac
python3 -c '
import sys, os
sys.path.insert(0, os.path.join(sys.argv[4], "tests"))
from seal import frame
src, dst, words = sys.argv[1], sys.argv[2], sys.argv[3].strip()
out = []
for line in open(src, encoding="utf-8", errors="replace").read().splitlines(True):
    if line.startswith("@isobench/1 ") and " INFO " in line and " kernel.cmdline=" in line:
        body = line.split(" ", 2)[2].rsplit(" *", 1)[0]
        seq = line.split(" ")[1]
        head, rest = body.split(" kernel.cmdline=", 1)
        val, _, tail = rest.partition(" ")
        body = "%s kernel.cmdline=%s%s%s" % (head, val, "%20" + words.replace(" ", "%20"), (" " + tail) if tail else "")
        line = frame(int(seq), body)
    out.append(line)
open(dst, "w").writelines(out)' "$fix/image-init.log" "$tmp/captured.log" "$capture" "$top"
st=0
"$rep" --label plain,captured "$fix/image-init.log" "$tmp/captured.log" >"$tmp/captured.out" 2>&1 || st=$?
status_is EXIT_OK "$st" "a run beside itself with the capture words added: compared"
has "$tmp/captured.log" 'kernel\.cmdline=.*isobench\.replay=1%20isobench\.halt=wait' "the resealed copy carries the capture words"
lacks "$tmp/captured.out" "kernel.cmdline" "the capture words make no kernel.cmdline warning"

# ---- the two sides -------------------------------------------------------------------------------
if [ ! -f "$out/bzImage" ] || ! command -v qemu-system-x86_64 >/dev/null; then
	skip "the boots: no $out/bzImage or qemu-system-x86_64"
	finish
	exit $?
fi
id=$(head -n 1 "$out/IDENTITY")
suite="isobench.suite=quick isobench.tests=getpid,syscall isobench.copies=1"
# The bare entry's words with image/cmdline's for @COMMON@ and the identity for @ID@, the suite
# made small, isobench.halt=wait left out; panic=-1 as qemu/run's direct boot has it.
common=$(grep -v '^#' "$top/image/cmdline" | head -n 1) || true
bare=$(sed -n '/^LABEL baremetal/,/^LABEL/s/^ *APPEND //p' "$top/image/isolinux.cfg" |
	sed "s|@COMMON@|$common|; s|@ID@|$id|; s| isobench.halt=wait||; s|isobench.suite=standard|$suite|")
case $bare in *isobench.repeat=3*isobench.replay=1*) pass "the bare stand-in boots the bare entry's words: $bare" ;;
*) fail "the bare entry's words: '$bare'" ;; esac
cp "$out/isobench.iso" "$tmp/stick.img"	# "write the stick" (dd to /dev/sdX on a real machine)
qboot bare bios "$tmp/bare-serial.log" 600 -m 1G -kernel "$out/bzImage" -initrd "$out/initramfs.cpio.gz" \
	-append "$bare panic=-1" -device qemu-xhci,id=xhci \
	-drive "if=none,id=stick,format=raw,file=$tmp/stick.img" -device usb-storage,bus=xhci.0,drive=stick
qboot vm qemu/run "$tmp/vm.log" 600 --direct --accel tcg --cpus 2 --mem 1G --suite quick \
	--tests getpid,syscall --copies 1 --params isobench.repeat=3

# The results off the stick: the block device, read-only, when this host lets us make one.
stick=$tmp/stick.img
if loop=$(losetup -r -f --show "$tmp/stick.img" 2>"$tmp/losetup.err"); then
	at_exit "losetup -d $loop"
	stick=$loop
	st=0
	"$rep" --check "$loop" >"$tmp/dev.check" 2>&1 || st=$?
	status_is EXIT_OK "$st" "isobench-report --check $loop (the stick as a read-only block device): a complete run"
else
	skip "no loop device here ($(head -n 1 "$tmp/losetup.err")): the stick read from its file"
fi
st=0
"$rep" --label bare,vm "$stick" "$tmp/vm.log" >"$tmp/table" 2>&1 || st=$?
if [ "$st" -eq "$EXIT_OK" ] || [ "$st" -eq "$EXIT_DIFFERS" ]; then pass "bare beside vm: compared (status $st)"
else fail "bare beside vm: status $st: $(tail -n 3 "$tmp/table" | tr '\n' '|')"; fi
cat "$tmp/table"
has "$tmp/table" '^side 1: bare, 3 run\(s\)' "side 1 is bare: three replicates from one boot, off the stick"
has "$tmp/table" '^side 2: vm, 3 run\(s\)' "side 2 is vm: three replicates"
has "$tmp/table" '^TEST +COPIES UNIT +bare \(TCG\) +vm \(TCG\) +ratio$' "the table's columns: bare, vm, ratio"
count_is "$tmp/table" '^System Call Overhead( \(getpid\))? +1 vm +3\+3 welch-t .*(different|equivalent|undecided)' 2 \
	"each test has its ratio's interval and one of the three answers"
has "$tmp/table" '^isobench-report: compared 2 sides of 3, 3 runs: ' "the closing line: 3 + 3 runs"
lacks "$tmp/table" "not comparable" "no comparability warning between the two sides"
contains "$tmp/table" ", 0 comparability warning(s)" "the closing line counts no comparability warning"
finish
