#!/usr/bin/env bash
# tests/test-qemu-run.sh — qemu/run's logic without booting: options, start failures, judgement.
#
# In:  qemu/run; $OUT/isobench and $OUT/isobench-report (built into a temp dir when absent);
#      serial logs written here with real CRC-32s (qemu/run judges only through the report
#      tool, whose parser checks them).
# Out: one line per assertion, then "N passed, M failed, K skipped".
# Errors: exits 1 if any assertion failed.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
run=$here/qemu/run
# shellcheck source=lib.sh
. "$here/tests/lib.sh"
use_tmp
tools=${OUT:-$here/out}
if [ ! -x "$tools/isobench-report" ] || [ ! -x "$tools/isobench" ]; then
	tools=$tmp/tools
	make -s -C "$here/report" O="$tools" >/dev/null
	make -s -C "$here/payload" O="$tools" >/dev/null
fi

# expect_status (tests/lib.sh) leaves the command's stderr in $tmp/stderr: every non-zero
# status comes with a line there saying what went wrong. (tests/test-testlib.sh checks that
# expect_status itself fails on a wrong status.)

empty=$tmp/empty-out	# nothing built at all
noimg=$tmp/noimage-out	# the tools, but no image or kernel
mkdir -p "$empty" "$noimg"
ln -s "$tools/isobench-report" "$tools/isobench" "$noimg/"

# --- where qemu/run finds its parts ------------------------------------------------------
# Through a symlink (~/bin/qemu-run -> CHECKOUT/qemu/run) it runs as itself; a copy of the file
# alone cannot start, and says so with NOSTART (the parts, qemu/lib/*.sh, are not beside it).
mkdir -p "$tmp/bin" "$tmp/lone/qemu"
ln -s "$run" "$tmp/bin/qemu-run"
expect_status EXIT_OK "qemu/run through a symlink: --help" -- "$tmp/bin/qemu-run" --help
contains "$tmp/stdout" "usage: qemu/run [options]" "qemu/run through a symlink prints its usage"
cp "$run" "$tmp/lone/qemu/run"
expect_status EXIT_NOSTART "a copy of qemu/run without its parts" -- "$tmp/lone/qemu/run" --help
contains "$tmp/stderr" "qemu/run: cannot read $tmp/lone/qemu/lib/common.sh" "... says which part it cannot read"

# --- usage errors: 2 -----------------------------------------------------------------------
expect_status EXIT_USAGE "unknown option" -- "$run" --bogus
has "$tmp/stderr" "^qemu/run: unknown option '--bogus'" "unknown option is named"
expect_status EXIT_USAGE "--cpus not a number" -- "$run" --cpus two
expect_status EXIT_USAGE "--cpus 0" -- "$run" --cpus 0
expect_status EXIT_USAGE "--accel invalid" -- "$run" --accel xen
expect_status EXIT_USAGE "--machine invalid" -- "$run" --machine arm
expect_status EXIT_USAGE "--machine microvm with the ISO" -- "$run" --machine microvm
expect_status EXIT_USAGE "--firmware invalid" -- "$run" --firmware efi
expect_status EXIT_USAGE "--medium invalid" -- "$run" --medium usb
expect_status EXIT_USAGE "--firmware uefi with --direct" -- "$run" --direct --firmware uefi
expect_status EXIT_USAGE "--medium disk with --pvh" -- "$run" --pvh --medium disk
expect_status EXIT_USAGE "--kernel without --direct" -- "$run" --kernel x
expect_status EXIT_USAGE "--suite invalid" -- "$run" --suite huge
expect_status EXIT_USAGE "--timeout invalid" -- "$run" --timeout 10s
expect_status EXIT_USAGE "--mem invalid" -- "$run" --mem lots
expect_status EXIT_USAGE "option without value" -- "$run" --iso
expect_status EXIT_USAGE "--tests with a space" -- "$run" --tests 'pipe spawn'
expect_status EXIT_USAGE "--iso with --direct" -- "$run" --direct --iso x.iso
# --arch arm64: virt only, UEFI or direct, no PVH; virt only with it.
expect_status EXIT_USAGE "--arch invalid" -- "$run" --arch sparc
expect_status EXIT_USAGE "--arch arm64 --firmware bios (arm64 has no BIOS)" -- "$run" --arch arm64 --firmware bios
has "$tmp/stderr" "no BIOS" "the refusal of --firmware bios on arm64 says why"
expect_status EXIT_USAGE "--arch arm64 --machine q35" -- "$run" --arch arm64 --machine q35
expect_status EXIT_USAGE "--arch arm64 --pvh" -- "$run" --arch arm64 --pvh
expect_status EXIT_USAGE "--arch arm64 --direct --firmware uefi" -- "$run" --arch arm64 --direct --firmware uefi
expect_status EXIT_USAGE "--machine virt without --arch arm64" -- "$run" --machine virt
# virt's own properties (EL2: virtualization=on, where PSCI goes over SMC) pass to -M; only
# PROP=VALUE words, nothing a shell or QEMU's option parser would read as more.
expect_status EXIT_OK "--arch arm64 --machine virt,virtualization=on" -- \
	"$run" --out "$noimg" --check-args --arch arm64 --machine virt,virtualization=on
# shellcheck disable=SC2016 # the $(...) is the input, not to be expanded
expect_status EXIT_USAGE "--arch arm64 --machine virt,x=\$(id)" -- \
	"$run" --out "$noimg" --check-args --arch arm64 --machine 'virt,x=$(id)'
expect_status EXIT_USAGE "--arch arm64 --machine virt, (no property)" -- \
	"$run" --out "$noimg" --check-args --arch arm64 --machine virt,
expect_status EXIT_USAGE "--machine pc,accel=kvm (properties are virt's only)" -- \
	"$run" --out "$noimg" --check-args --machine pc,accel=kvm
expect_status EXIT_OK "--help" -- "$run" --help
if grep -q '^  5  timeout' "$tmp/stdout" && grep -q '^  7  could not start' "$tmp/stdout"; then
	pass "--help documents the exit-status table"
else
	fail "--help lacks the exit-status table"
fi

# --- could not start: 7 ----------------------------------------------------------------------
expect_status EXIT_NOSTART "missing ISO" -- "$run" --out "$noimg" --iso "$tmp/nonexistent.iso" --accel tcg
has "$tmp/stderr" "^qemu/run: no ISO " "missing ISO is named"
expect_status EXIT_NOSTART "missing vmlinux for --pvh" -- "$run" --pvh --out "$noimg" --accel tcg
expect_status EXIT_NOSTART "missing UEFI firmware" -- env OVMF_CODE="$tmp/none.fd" "$run" --out "$noimg" --firmware uefi --iso "$0" --accel tcg
expect_status EXIT_NOSTART "missing default ISO in --out" -- "$run" --out "$noimg" --accel tcg
expect_status EXIT_NOSTART "--direct without a kernel" -- "$run" --direct --out "$noimg" --accel tcg
has "$tmp/stderr" "^qemu/run: no .*/bzImage" "missing kernel is named"
expect_status EXIT_NOSTART "--judge a missing log" -- "$run" --out "$noimg" --judge "$tmp/nonexistent.log"
expect_status EXIT_NOSTART "--arch arm64 --direct without an arm64 kernel" -- "$run" --arch arm64 --direct --out "$noimg" --accel tcg
has "$tmp/stderr" "^qemu/run: no .*/arm64/Image" "the missing arm64 kernel is named (OUT/arm64/Image)"
expect_status EXIT_NOSTART "--arch arm64 without AAVMF" -- env AAVMF_CODE="$tmp/none.fd" "$run" --arch arm64 --out "$noimg" --iso "$0" --accel tcg
has "$tmp/stderr" "no UEFI firmware .*qemu-efi-aarch64" "the missing AAVMF names its package"
# An interface that is not there: said, never a bare status 1 (ip's failure inside the
# assignment once ended the script under set -e before its message).
expect_status EXIT_NOSTART "--tap naming no interface" -- "$run" --nic virtio --tap nosuch0 --dry-run --direct
has "$tmp/stderr" "^qemu/run: --tap nosuch0: no such interface" "... and the interface is named"

# --- check-args: test names, copies and suite with the runner's own parser, before a build --
expect_status EXIT_USAGE "--check-args --tests nosuch" -- "$run" --out "$tools" --check-args --tests nosuch
has "$tmp/stderr" "unknown test or group: nosuch" "the unknown test is named"
expect_status EXIT_USAGE "--check-args --copies 0" -- "$run" --out "$tools" --check-args --copies 0
expect_status EXIT_OK "--check-args --tests pipe" -- "$run" --out "$tools" --check-args --tests pipe
# An isobench key without its prefix would go to the kernel and be ignored: refused with the fix.
expect_status EXIT_USAGE "--check-args --params 'sample_ms=50' (no isobench. prefix)" -- \
	"$run" --out "$tools" --check-args --params 'quiet sample_ms=50'
has "$tmp/stderr" "'sample_ms=50' would not reach isobench; write isobench.sample_ms=50" "the fix is named"
expect_status EXIT_OK "--params with the kernel's own words (clocksource=, console=, a.b=)" -- \
	"$run" --out "$tools" --check-args --params 'clocksource=acpi_pm console=ttyS1 i8042.noaux=1'
expect_status EXIT_OK "--params isobench.sample_ms=50" -- "$run" --out "$tools" --check-args --params 'isobench.sample_ms=50'
expect_status EXIT_NOSTART "no isobench-report: qemu/run does not judge by itself" -- "$run" --out "$empty" --judge "$0"
has "$tmp/stderr" "qemu/run judges and follows logs only through it" "the missing report tool is named"

# --- judgement, only through isobench-report --boot ---------------------------------------------
# serial_log NAME LINE...: a serial log with CRLF line ends and kernel noise around the records.
# "R SEQ BODY" lines become records sealed with their CRC-32, "X SEQ BODY" records with a wrong
# one (a damaged line: tests/seal.py); other lines are copied as they are.
serial_log() {
	local f=$tmp/$1.log
	shift
	PYTHONPATH=$here/tests python3 - "$f" "$@" <<'PY'
import sys
from seal import seal
out = [b'SeaBIOS (version 1.16.2-debian-1.16.2-1)', b'[    0.000000] Linux version 6.1.0']
for l in sys.argv[2:]:
    b = l.encode()
    if b[:2] in (b'R ', b'X '):
        body = b'@isobench/1 ' + b[2:]
        out.append(b'[    1.5] ' * (b' TEST ' in body) + seal(body, damaged=b[:1] == b'X'))
    else:
        out.append(b)
open(sys.argv[1], 'wb').write(b''.join(x + b'\r\n' for x in out))
PY
	echo "$f"
}
B="R 1 BEGIN run=0123456789abcdef version=t mode=init"
good=("$B" "R 2 INFO kernel.release=6.1"
	"R 3 TEST test=pipe k=1 n=1 copies=1 unit=lps better=higher"
	"R 4 RESULT test=pipe copies=1 unit=lps better=higher value=1 samples=1")
end="R 5 END records=4 results=1 fails=0 skips=0 errors=0 status=ok"
off="[    9.0] reboot: Power down"
wd=("${B/0123456789abcdef/0000000000000001}" "R 2 FAIL test=watchdog reason=stalled" "R 3 END records=2 results=0 fails=1 skips=0 errors=0 status=ok")

qemu_judge() { "$run" --out "$tools" --judge "$1"; }
expect_status EXIT_OK "complete run, powered off (noise, CRLF, record after kernel text)" -- qemu_judge "$(serial_log ok "${good[@]}" "$end" "$off")"
expect_status EXIT_OK "halt=reboot: rebooted, as asked" -- qemu_judge "$(serial_log reboot "${good[@]}" "$end" "[    9.0] reboot: Restarting system")"
contains "$tmp/stdout" "guest rebooted" "the verdict says it rebooted, not powered off"
expect_status EXIT_CRASHED "complete run that neither powered off nor rebooted" -- qemu_judge "$(serial_log nooff "${good[@]}" "$end")"
has "$tmp/stderr" "crashed" "no power-off is named"
expect_status EXIT_INCOMPLETE "missing END" -- qemu_judge "$(serial_log noend "${good[@]}")"
expect_status EXIT_INCOMPLETE "no records at all" -- qemu_judge "$(serial_log none)"
expect_status EXIT_CRASHED "Kernel panic" -- qemu_judge "$(serial_log panic "${good[@]}" \
	'[    2.0] Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b')"
contains "$tmp/stdout" "the kernel panicked (line 7)" "the panic's line is named"
expect_status EXIT_CRASHED "Kernel panic after a complete run" -- qemu_judge "$(serial_log panic2 "${good[@]}" "$end" \
	'[    9.0] Kernel panic - not syncing: Fatal exception')"
expect_status EXIT_CRASHED "watchdog FAIL" -- qemu_judge "$(serial_log wd "${wd[@]}" "$off")"
expect_status EXIT_OK "a damaged watchdog FAIL line before a good run is not a crash" -- qemu_judge "$(serial_log wdbad \
	"X 9 FAIL test=watchdog reason=stalled" "${good[@]}" "$end" "$off")"
expect_status EXIT_OK "a watchdog run, then a complete boot: the latest boot counts" -- qemu_judge "$(serial_log wdthen \
	"${wd[@]}" "${good[@]}" "$end" "$off")"
expect_status EXIT_OK "a text line naming a Kernel panic is not one" -- qemu_judge "$(serial_log textpanic \
	"${good[@]}" "isobench: note: grep 'Kernel panic' found nothing" "$end" "$off")"
# --killed (qemu/run's timeout: QEMU was stopped here): a missing power-off is the timeout's
# doing, not a crash; a panic or the watchdog still are.
rep_killed() { "$tools/isobench-report" --boot --killed --check "$1"; }
expect_status EXIT_OK "--killed: a complete run that did not power off is no crash" -- rep_killed "$tmp/nooff.log"
expect_status EXIT_CRASHED "--killed: a Kernel panic still is" -- rep_killed "$tmp/panic.log"
contains "$tmp/stdout" "the kernel panicked (line 7)" "--killed: the panic's line is named"
expect_status EXIT_CRASHED "--killed: a watchdog FAIL still is" -- rep_killed "$tmp/wd.log"
expect_status EXIT_USAGE "--killed without --boot is a usage error" -- "$tools/isobench-report" --killed "$tmp/ok.log"
# A second boot has its own run id (the same id again is the run replayed: isobench.replay=1).
expect_status EXIT_INCOMPLETE "a complete run, then a boot cut off: the latest boot failed" -- qemu_judge "$(serial_log cutlast \
	"${good[@]}" "$end" "$off" "${good[0]/0123456789abcdef/fedcba9876543210}" "${good[@]:1}")"
expect_status EXIT_FAILS "complete run with a FAIL" -- qemu_judge "$(serial_log failrec "${good[@]}" \
	"R 5 FAIL test=spawn reason=crashed signal=11" \
	"R 6 END records=5 results=1 fails=1 skips=0 errors=0 status=ok" "$off")"
expect_status EXIT_FAILS "complete run with an ERROR" -- qemu_judge "$(serial_log errrec "${good[@]}" \
	"R 5 ERROR what=test reason=unknown test=nope" \
	"R 6 END records=5 results=1 fails=0 skips=0 errors=1 status=ok" "$off")"
expect_status EXIT_INCOMPLETE "sequence gap (lost record)" -- qemu_judge "$(serial_log gap "${good[0]}" "${good[1]}" "${good[3]}" "$end" "$off")"
expect_status EXIT_INCOMPLETE "END count disagrees" -- qemu_judge "$(serial_log count "${good[@]}" \
	"R 5 END records=9 results=1 fails=0 skips=0 errors=0 status=ok" "$off")"
expect_status EXIT_OK "two complete boots in one log" -- qemu_judge "$(serial_log twice "${good[@]}" "$end" "$off" \
	"${good[0]/0123456789abcdef/fedcba9876543210}" "${good[@]:1}" "$end" "$off")"

# A guest that printed nothing (only qemu/run's own '#' lines): the memory hint.
printf '# qemu/run: accel=tcg machine=pc mem=24M\n# qemu/run: host x\n' >"$tmp/silent.log"
expect_status EXIT_INCOMPLETE "a log with nothing from the guest" -- qemu_judge "$tmp/silent.log"
contains "$tmp/stderr" "the guest printed nothing at all; with --mem" "... suggests more memory"


# --- several boots (issue 35): --repeat N, --ab-params A B --rounds N ---------------------------
expect_status EXIT_USAGE "--repeat 0" -- "$run" --repeat 0
expect_status EXIT_USAGE "--rounds without --ab-params" -- "$run" --rounds 3
expect_status EXIT_USAGE "--ab-params with one set" -- "$run" --ab-params 'clocksource=tsc' --suite quick
has "$tmp/stderr" "wants two parameter sets" "--ab-params with one set says it wants two"
expect_status EXIT_USAGE "--repeat with --ab-params" -- "$run" --repeat 2 --ab-params a=1 b=2
#    Without an image every boot fails to start (status 7, the first boot's), but the boots
#    happen in their order, with their logs named so they group and their rounds and sides on
#    the command line, the user's --params first.
expect_status EXIT_NOSTART "--ab-params, 2 rounds, no image: the first boot's status" -- \
	"$run" --out "$noimg" --log "$tmp/ab.log" --params 'isobench.pin=1' --rounds 2 \
	--ab-params 'clocksource=tsc' 'clocksource=hpet'
#    The balanced order (issue 46): A B in round 1, B A in round 2, each boot's place said.
for k in 1 2; do
	ap=$((k % 2 ? 1 : 2)) bp=$((k % 2 ? 2 : 1))
	has "$tmp/stderr" "^qemu/run: boot $((2 * k - 2 + ap)): $tmp/ab-r$k-a\\.log \\(isobench\\.pin=1 isobench\\.round=$k isobench\\.ab_side=a isobench\\.ab_pos=$ap clocksource=tsc\\)$" \
		"round $k: the A boot at place $ap, its log named -r$k-a"
	has "$tmp/stderr" "^qemu/run: boot $((2 * k - 2 + bp)): $tmp/ab-r$k-b\\.log \\(isobench\\.pin=1 isobench\\.round=$k isobench\\.ab_side=b isobench\\.ab_pos=$bp clocksource=hpet\\)$" \
		"round $k: the B boot at place $bp, its log named -r$k-b"
done
has "$tmp/stderr" "^qemu/run: 4 boots; compare with: $noimg/isobench-report $tmp/ab-r1-a\\.log" \
	"the closing line says how to compare them, with --out's report tool"
expect_status EXIT_NOSTART "--repeat 3, no image" -- "$run" --out "$noimg" --log "$tmp/rep.log" --repeat 3
count_is "$tmp/stderr" "^qemu/run: boot [1-3]: $tmp/rep-r[1-3]\\.log " 3 "--repeat 3: three boots, logs -r1 .. -r3"
has "$tmp/stderr" "^qemu/run: 3 boots; compare with: $noimg/isobench-report --label a,a,a,b,b,b $tmp/rep-r1\\.log $tmp/rep-r2\\.log $tmp/rep-r3\\.log B-r1\\.log B-r2\\.log B-r3\\.log " \
	"--repeat 3: the closing line's --label matches the logs, three a side"

# --ab IMAGE_A IMAGE_B: two images alternately, an out/ directory as --out, a file as --iso.
expect_status EXIT_USAGE "--ab with one image" -- "$run" --ab "$noimg"
has "$tmp/stderr" "--ab wants two images" "--ab with one image says it wants two"
expect_status EXIT_USAGE "--ab with a missing image" -- "$run" --ab "$noimg" "$tmp/nonesuch"
has "$tmp/stderr" "'$tmp/nonesuch' is neither an out/ directory nor an ISO file" "the missing image is named"
expect_status EXIT_USAGE "--ab with --ab-params" -- "$run" --ab "$noimg" "$noimg" --ab-params a=1 b=2
expect_status EXIT_USAGE "--ab with --iso" -- "$run" --iso "$tmp/nonesuch" --ab "$noimg" "$noimg"
expect_status EXIT_USAGE "--ab with --repeat" -- "$run" --repeat 2 --ab "$noimg" "$noimg"
noimg2=$tmp/noimage-out2
mkdir -p "$noimg2"
ln -s "$tools/isobench-report" "$tools/isobench" "$noimg2/"
expect_status EXIT_NOSTART "--ab two out/ directories, 2 rounds, no image: the first boot's status" -- \
	"$run" --log "$tmp/abi.log" --rounds 2 --ab "$noimg" "$noimg2"
for k in 1 2; do
	ap=$((k % 2 ? 1 : 2)) bp=$((k % 2 ? 2 : 1))
	has "$tmp/stderr" "^qemu/run: boot $((2 * k - 2 + ap)): $tmp/abi-r$k-a\\.log \\(isobench\\.round=$k isobench\\.ab_side=a isobench\\.ab_pos=$ap\\) \\[--out $noimg\\]$" \
		"--ab round $k: the A boot on image A (--out) at place $ap, its log -r$k-a"
	has "$tmp/stderr" "^qemu/run: boot $((2 * k - 2 + bp)): $tmp/abi-r$k-b\\.log \\(isobench\\.round=$k isobench\\.ab_side=b isobench\\.ab_pos=$bp\\) \\[--out $noimg2\\]$" \
		"--ab round $k: the B boot on image B (--out) at place $bp, its log -r$k-b"
done
count_is "$tmp/stderr" "^qemu/run: no ISO $noimg2/isobench\\.iso" 2 "each B boot looked for image B's ISO"
#    Two ISO files (empty: each boot fails to start when it opens the ISO, before any QEMU).
: >"$tmp/a.iso"
: >"$tmp/b.iso"
expect_status EXIT_NOSTART "--ab two ISO files: they cannot start" -- \
	"$run" --out "$noimg" --log "$tmp/abs.log" --rounds 1 --ab "$tmp/a.iso" "$tmp/b.iso"
has "$tmp/stderr" "^qemu/run: boot 1: $tmp/abs-r1-a\\.log \\(isobench\\.round=1 isobench\\.ab_side=a isobench\\.ab_pos=1\\) \\[--iso $tmp/a\\.iso\\]$" \
	"--ab: an ISO file is A's --iso"
has "$tmp/stderr" "^qemu/run: boot 2: $tmp/abs-r1-b\\.log \\(isobench\\.round=1 isobench\\.ab_side=b isobench\\.ab_pos=2\\) \\[--iso $tmp/b\\.iso\\]$" \
	"--ab: and B's"
has "$tmp/stderr" "^qemu/run: 2 boots; compare with: .*isobench-report $tmp/abs-r1-a\\.log $tmp/abs-r1-b\\.log$" \
	"--ab: the closing line names both logs"

# --- the guest's size and its scratch disks' cache (issue 45), by --dry-run: the header and
#     QEMU's command line, nothing booted -----------------------------------------------------
expect_status EXIT_USAGE "--cpus hosts" -- "$run" --cpus hosts
expect_status EXIT_USAGE "--mem HOST" -- "$run" --mem HOST
# A count or size past what any QEMU machine takes: a usage error naming the bound, not a
# shell's "integer expression expected" and a command line QEMU refuses (or, with --numa,
# node sizes wrapped around 2^63).
expect_status EXIT_USAGE "--cpus 99999999999999999999" -- "$run" --cpus 99999999999999999999
has "$tmp/stderr" "^qemu/run: --cpus must be 1\\.\\.4096 \\(more than any QEMU machine takes\\) or host, not '99999999999999999999'$" "... said with the bound"
lacks "$tmp/stderr" "integer expression expected" "... and no shell error"
expect_status EXIT_USAGE "--mem 99999999999999999999G --numa 2" -- "$run" --mem 99999999999999999999G --numa 2
has "$tmp/stderr" "^qemu/run: --mem must look like 512M or 2G .*not '99999999999999999999G'" "... a size that overflows: refused"
expect_status EXIT_USAGE "--scratch-cache unsafe" -- "$run" --scratch-cache unsafe
if ! command -v qemu-system-x86_64 >/dev/null; then
	skip "--dry-run: needs qemu-system-x86_64 (its --version heads the log)"
else
	fake=$tmp/fake-out	# the tools, and empty files where the kernel and initramfs go
	mkdir -p "$fake"
	ln -s "$tools/isobench-report" "$tools/isobench" "$fake/"
	: >"$fake/bzImage"
	: >"$fake/initramfs.cpio.gz"
	echo fake >"$fake/IDENTITY"
	dry() { "$run" --out "$fake" --direct --accel tcg --dry-run "$@"; }
	# --cpus host --mem host: every online CPU, MemAvailable less max(1 GiB, MemTotal/8).
	expect_status EXIT_OK "--cpus host --mem host --dry-run" -- dry --cpus host --mem host --log "$tmp/host.log"
	dry --cpus host --mem host --log "$tmp/host.log" >"$tmp/host.cmd" 2>/dev/null || true
	ncpu=$(getconf _NPROCESSORS_ONLN)
	has "$tmp/host.log" "^# qemu/run: sizing vcpus=$ncpu \\(--cpus host: this host's online CPUs\\) mem=[0-9]+M \\(--mem host: MemAvailable [0-9]+ MiB less a margin of [0-9]+ MiB" \
		"--cpus host --mem host: the sizing line says how"
	has "$tmp/host.log" "^# qemu/run: accel=tcg .* vcpus=$ncpu mem=[0-9]+M$" "the accel line carries the host's size"
	if python3 - "$tmp/host.log" "$tmp/host.cmd" <<'PY'; then pass "--mem host = MemAvailable - max(1024, MemTotal/8) MiB, as now, on -m; -smp every CPU"; else fail "--mem host's rule or the command line"; fi
import os, re, sys
h = open(sys.argv[1]).read()
cmd = open(sys.argv[2]).read().split("\n")
m = re.search(r"mem=(\d+)M \(--mem host: MemAvailable (\d+) MiB less a margin of (\d+) MiB, "
              r"max\(1 GiB, MemTotal (\d+) MiB / 8\)\)", h)
mem, avail, margin, total = map(int, m.groups())
assert margin == max(1024, total // 8), (margin, total)
assert mem == avail - margin, (mem, avail, margin)
info = dict(l.split(":", 1) for l in open("/proc/meminfo"))
now_total = int(info["MemTotal"].split()[0]) // 1024
now_avail = int(info["MemAvailable"].split()[0]) // 1024
assert total == now_total, (total, now_total)
assert abs(avail - now_avail) < now_total // 10, (avail, now_avail)  # moments apart
assert cmd[cmd.index("-m") + 1] == "%dM" % mem, cmd
assert cmd[cmd.index("-smp") + 1] == str(os.sysconf("SC_NPROCESSORS_ONLN")), cmd
PY
	# The default: 2 vCPUs and 1 GiB, said as the default.
	dry --log "$tmp/def.log" >"$tmp/def.cmd" 2>/dev/null || true
	has "$tmp/def.log" "^# qemu/run: sizing vcpus=2 \\(default\\) mem=1G \\(default\\)" "neither given: the default 2 vCPUs, 1G, said so"
	# --mem host against a planted /proc/meminfo (bound over it in a mount namespace of its
	# own: root's unshare -m, /proc made private there so nothing reaches the host; not "/",
	# which a chroot such as tests/fresh-root.sh's cannot change): capped at what the accelerator addresses (QEMU 7.2 refuses a guest
	# past phys-bits: x86 TCG 1 TiB less 36 GiB), at 2047M on a 32-bit host (a getconf
	# saying LONG_BIT 32), and refused with the figures when too little is available.
	if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
		skip "--mem host caps: need root and unshare to plant /proc/meminfo"
	else
		planted() { # planted TOTAL_KIB AVAIL_KIB CMD...: CMD seeing that /proc/meminfo
			printf 'MemTotal: %s kB\nMemFree: %s kB\nMemAvailable: %s kB\n' "$1" "$2" "$2" >"$tmp/meminfo.$1"
			local f=$tmp/meminfo.$1
			shift 2
			# shellcheck disable=SC2016 # the inner shell expands them
			unshare -m --propagation unchanged sh -c \
				'mount --make-private /proc && mount --bind "$0" /proc/meminfo && exec "$@"' "$f" "$@"
		}
		big=$((4 << 30)) # KiB: a 4 TiB host with 3 TiB available
		planted "$big" $((3 << 30)) "$run" --out "$fake" --direct --accel tcg --dry-run --mem host \
			--log "$tmp/big.log" >"$tmp/big.cmd" 2>"$tmp/big.err" || true
		has "$tmp/big.cmd" '^1011712M$' "--mem host on a 3 TiB host under TCG: -m 1011712M (2^40 B less 36 GiB)"
		has "$tmp/big.log" "^# qemu/run: sizing .*mem=[0-9]+M \\(--mem host: .*\\), capped at 1011712M \\(TCG -cpu max: QEMU's phys-bits 40" \
			"... the sizing line says capped, and why"
		contains "$tmp/big.err" "is more than this QEMU can give the guest (1011712 MiB" "... and a note says so"
		mkdir -p "$tmp/bin32"
		# shellcheck disable=SC2016 # the stub's own words
		printf '#!/bin/sh\n[ "$1" = LONG_BIT ] && { echo 32; exit 0; }\nexec /usr/bin/getconf "$@"\n' >"$tmp/bin32/getconf"
		chmod +x "$tmp/bin32/getconf"
		planted $((16 << 20)) $((12 << 20)) env PATH="$tmp/bin32:$PATH" "$run" --out "$fake" --direct \
			--accel tcg --dry-run --mem host --log "$tmp/b32.log" >"$tmp/b32.cmd" 2>/dev/null || true
		has "$tmp/b32.cmd" '^2047M$' "--mem host on a 32-bit host with 10 GiB to spare: -m 2047M"
		has "$tmp/b32.log" "capped at 2047M \\(a 32-bit host" "... said"
		expect_status EXIT_USAGE "--mem host with 1200 MiB available: a usage error" -- \
			planted $((2 << 20)) $((1200 << 10)) "$run" --out "$fake" --direct --accel tcg --dry-run --mem host
		has "$tmp/stderr" "^qemu/run: --mem host: this host has 1200 MiB available, less the margin of 1024 MiB that leaves 176 MiB \\(under 256 MiB\\): give --mem" \
			"... with the figures"
	fi
	# --cpus host counts the CPUs this process may run on (taskset), not every online one.
	if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ] || ! command -v taskset >/dev/null; then
		skip "--cpus host under taskset: needs 2 CPUs and taskset"
	else
		taskset -c 0 "$run" --out "$fake" --direct --accel tcg --dry-run --cpus host --log "$tmp/ts.log" \
			>"$tmp/ts.cmd" 2>/dev/null || true
		has "$tmp/ts.log" "^# qemu/run: sizing vcpus=1 \\(--cpus host: the 1 CPUs this process may run on, of [0-9]+ online\\)" \
			"--cpus host under taskset -c 0: one vCPU, said"
		has "$tmp/ts.cmd" '^1$' "... -smp 1"
	fi
	# Scratch disks: cache=none,aio=native by default, said in a scratch line; writeback on request.
	"$tools/isobench" --make-scratch "$tmp/s.img" 8M >/dev/null
	dry --scratch "$tmp/s.img" --log "$tmp/sc.log" >"$tmp/sc.cmd" 2>/dev/null || true
	has "$tmp/sc.cmd" "^file=$tmp/s\\.img,format=raw,if=none,id=scr0,cache=none,aio=native,werror=report,rerror=report$" \
		"--scratch: QEMU opens it cache=none,aio=native"
	has "$tmp/sc.log" "^# qemu/run: scratch0 $tmp/s\\.img if=virtio fs=[^ ]+ cache=none aio=native " "the scratch line says cache=none"
	dry --scratch "$tmp/s.img" --scratch-cache writeback --log "$tmp/wb.log" >"$tmp/wb.cmd" 2>/dev/null || true
	has "$tmp/wb.cmd" "^file=$tmp/s\\.img,format=raw,if=none,id=scr0,cache=writeback,werror" "--scratch-cache writeback: the old mode"
	has "$tmp/wb.log" "^# qemu/run: scratch0 .* cache=writeback \\(the host's page cache" "... said in the scratch line"
	# A file system refusing O_DIRECT (tmpfs before Linux 6.6), planted: a dd that refuses
	# iflag=direct as such a file system does. Writeback, a note, the line says why.
	mkdir -p "$tmp/bin"
	printf '#!/bin/sh\ncase "$*" in *iflag=direct*) echo "dd: Invalid argument" >&2; exit 1 ;; esac\nexec /bin/dd "$@"\n' >"$tmp/bin/dd"
	chmod +x "$tmp/bin/dd"
	PATH=$tmp/bin:$PATH "$run" --out "$fake" --direct --accel tcg --dry-run --scratch "$tmp/s.img" \
		--log "$tmp/nod.log" >"$tmp/nod.cmd" 2>"$tmp/nod.err" || true
	has "$tmp/nod.cmd" "id=scr0,cache=writeback," "O_DIRECT refused: attached writeback"
	has "$tmp/nod.log" "^# qemu/run: scratch0 .* cache=writeback \\(fallback: O_DIRECT refused\\) " "... and the scratch line says it fell back"
	has "$tmp/nod.err" "refuses O_DIRECT, which cache=none needs" "... with a note saying why"
fi

finish
