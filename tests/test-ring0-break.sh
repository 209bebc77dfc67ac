#!/usr/bin/env bash
# tests/test-ring0-break.sh — the ring0 driver (kernel-config/driver/isobench_probe.c) against
# hostile and unlucky callers and machines (test-ring0.sh has the documented contract):
#   * tests/ring0-break.c as /init, TCG, 2 CPUs: a caller pinned to the ipi probe's target CPU
#     gets its call back in < 150 ms (the driver's spinner used to hold it off that CPU for
#     its whole 200 ms bound); non-root open EACCES, a root fd used without CAP_SYS_RAWIO
#     EPERM; NULL, unmapped and read-only requests EFAULT; the TSC_ADJUST probes run or refuse
#     with a reason on CPU 1; three processes storming the ioctl while CPU 1 goes offline and
#     online 4 times get only 0/ENODEV/EOPNOTSUPP, die at once on SIGKILL; no WARNING/BUG;
#   * the image on QEMU's microvm under TCG (no HPET, no PM timer, a tick-based clocksource;
#     inl_from_kernel runs or SKIPs, as microvm has an 8259 PIC or not):
#     no ring0 test FAILs; each has a RESULT or SKIPs with a reason, and with a jiffies
#     clocksource the probes SKIP saying so (they used to FAIL "no valid sample": 0 ns);
#   * maxcpus=1 nox2apic on a 2-CPU machine: the IPI probes SKIP ("needs a second online
#     CPU"), cpuid and mmio_lapic (xAPIC MMIO) have results, rd_x2apic_ver_msr (its x2APIC
#     MSR twin) SKIPs saying the APIC is in xAPIC mode;
#   * -icount shift=8, 1 CPU: a fine clock slow to read (each read ~13 us of guest time, the
#     clock moving on every read) times ring0-cpuid (it used to SKIP as "tick-based").
# In:  $OUT (default out/): bzImage, initramfs.cpio.gz, isobench, isobench-report (./build.sh);
#      qemu/run, qemu-system-x86_64, musl-gcc, initramfs/build.sh.
# Out: ok/FAIL lines, then finish's summary. About 100 s on a quiet 2-core host (4 TCG boots).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
use_tmp

rec='^@isobench/1 [0-9]+'

# ---- tests/ring0-break.c as /init ------------------------------------------------------------
ring0_init_boot ring0-break 10

# ring0_outcomes LOG TEST...: one line per TEST with neither a RESULT nor a SKIP with a
# reason in LOG, and every FAIL record.
ring0_outcomes() {
	local log=$1 t
	shift
	for t in "$@"; do
		grep -aqE "$rec (RESULT test=$t copies=1 |SKIP test=$t copies=1 reason=[^ ]+ )" "$log" ||
			echo "$t: neither a RESULT nor a SKIP with a reason"
	done
	grep -aE "$rec FAIL " "$log" | cut -c1-160 | sed 's/^/FAIL record: /'
}

# ---- microvm: no HPET, no PM timer ---------------------------------------------------------
mv=(ring0-cpuid ring0-mmio_lapic ring0-inl_from_pmtimer ring0-mmio_hpet ring0-hlt
	ring0-inl_from_kernel)
st=0
"$top/qemu/run" --direct --accel tcg --cpus 2 --machine microvm --suite quick \
	--tests "$(IFS=,; echo "${mv[*]}")" --copies 1 --timeout 150 --log "$tmp/mv.log" \
	--out "$out" >"$tmp/mv.out" 2>&1 || st=$?
status_is EXIT_OK "$st" "qemu/run, microvm, TCG: ${mv[*]}"
none "$(ring0_outcomes "$tmp/mv.log" "${mv[@]}")" \
	"microvm: every ring0 test has a RESULT or SKIPs with a reason, none FAILs" "microvm"
for t in ring0-inl_from_pmtimer ring0-mmio_hpet; do
	has "$tmp/mv.log" "$rec SKIP test=$t copies=1 reason=[^ ]+ " "microvm: $t SKIPs"
done
if grep -aqE "$rec INFO .* clocksource\.current=(refined-)?jiffies " "$tmp/mv.log"; then
	has "$tmp/mv.log" "$rec SKIP test=ring0-cpuid copies=1 reason=[^ ]*tick-based%20clocksource" \
		"microvm: jiffies clocksource: ring0-cpuid SKIPs saying the clock is tick-based"
else
	has "$tmp/mv.log" "$rec RESULT test=ring0-cpuid copies=1 " \
		"microvm: a fine clocksource: ring0-cpuid has a result"
fi
grep -aE "$rec (RESULT|SKIP) test=ring0-" "$tmp/mv.log" | sed -E "s|$rec ||" | cut -c1-150 |
	sed 's/^/  /'

# ---- maxcpus=1 nox2apic: one online CPU of two, xAPIC --------------------------------------
st=0
"$top/qemu/run" --direct --accel tcg --cpus 2 --params "maxcpus=1 nox2apic" --suite quick \
	--tests ring0-cpuid,ring0-mmio_lapic,ring0-ipi,ring0-ipi_halt,ring0-rd_x2apic_ver_msr \
	--copies 1 --timeout 150 \
	--log "$tmp/one.log" --out "$out" >"$tmp/one.out" 2>&1 || st=$?
status_is EXIT_OK "$st" "qemu/run, TCG, 2 CPUs, maxcpus=1 nox2apic"
for t in ring0-ipi ring0-ipi_halt; do
	has "$tmp/one.log" "$rec SKIP test=$t copies=1 reason=needs%20a%20second%20online%20CPU" \
		"maxcpus=1: $t SKIPs with \"needs a second online CPU\""
done
for t in ring0-cpuid ring0-mmio_lapic; do
	has "$tmp/one.log" "$rec RESULT test=$t copies=1 " "maxcpus=1 nox2apic: $t has a result"
done
has "$tmp/one.log" "$rec SKIP test=ring0-rd_x2apic_ver_msr copies=1 reason=local%20APIC%20in%20xAPIC%20mode" \
	"nox2apic: ring0-rd_x2apic_ver_msr SKIPs saying the APIC is in xAPIC mode"
none "$(ring0_outcomes "$tmp/one.log" ring0-cpuid ring0-mmio_lapic ring0-ipi ring0-ipi_halt)" \
	"maxcpus=1: no ring0 problem" "maxcpus=1"

# ---- -icount shift=8: a fine clock that is slow to read ------------------------------------
# 256 ns of guest time per instruction: a ktime_get_ns() read costs ~13 us of guest time and
# the TSC clock moves on every read. The driver's clock check used to take the step for a
# tick ("moves in 13 us steps (a tick-based clocksource)": ring0-cpuid SKIPped).
st=0
timeout -k 5 150 qemu-system-x86_64 -nodefaults -accel tcg -icount shift=8,sleep=off -cpu max \
	-M pc -m 512 -smp 1 -display none -no-reboot -serial "file:$tmp/ic.log" \
	-kernel "$out/bzImage" -initrd "$out/initramfs.cpio.gz" -append "console=ttyS0 \
isobench.suite=quick isobench.tests=ring0-cpuid isobench.copies=1 panic=-1" \
	</dev/null >"$tmp/ic.qemu" 2>&1 || st=$?
status_is EXIT_OK "$st" "the image under -icount shift=8 powered off"
has "$tmp/ic.log" "$rec INFO .* clocksource\.current=tsc " "icount: the kernel's clock is the TSC"
has "$tmp/ic.log" "$rec RESULT test=ring0-cpuid copies=1 " \
	"icount: a clock slow to read (13 us) but moving on every read times ring0-cpuid"
grep -aE "$rec (RESULT|SKIP) test=ring0-" "$tmp/ic.log" | sed -E "s|$rec ||" | cut -c1-150 |
	sed 's/^/  /'

finish
