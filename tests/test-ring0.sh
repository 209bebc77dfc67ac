#!/usr/bin/env bash
# tests/test-ring0.sh — the ring0 group and its driver on x86-64 (kernel-config/driver/isobench_probe.c
# and driver/arch/x86_64/; arm64's probes are booted by tests/test-arm64.sh):
#   * --list holds every architecture's ring-0 probes (the driver's lists), each once: x86-64's
#     own first, in its order, then the others' it lacks (ring0-hvc, ring0-wfi);
#   * natively (no driver) every ring0-* test of x86-64's list SKIPs with "needs the image's
#     kernel", and another architecture's, natively and in the image, with "hvc is an arm64
#     ring-0 probe";
#   * in the image under TCG, 2 CPUs: every ring0-* test has a RESULT whose measured SAMPLEs
#     carry cycles_x100 > 0, op_ns_x100 > 0 and null_ns_x100, and which carries null_ns_x100
#     itself (the null batch's figure the value is net of), or SKIPs with a reason; at least
#     eight have results; no FAIL (the values are emulation: plumbing, not a hypervisor's
#     cost); outb_0x80 (the kernel's default I/O delay is port 0x80), inl_from_kernel and
#     mmio_lapic have results, rd_x2apic_ver_msr SKIPs (QEMU 7.2's TCG has no x2APIC);
#   * with 1 CPU and io_delay=0xed the IPI probes SKIP ("needs a second online CPU"), cpuid
#     still runs and outb_0x80 SKIPs saying the kernel's I/O delay is port 0xed; with
#     io_delay=none outb_0x80 SKIPs saying so and inl_from_kernel runs; booted as a board on
#     the kernel's DMI list of boards that lock up on port 0x80 (QEMU's -smbios type=2,
#     Quanta 30B7), the kernel moves its delay to 0xed and outb_0x80 SKIPs;
#   * tests/ring0-abi.c as /init: the ioctl rejects bad probe numbers, iteration counts, CPUs,
#     version and flags; a good call returns its batch count and null figure; a probe on a
#     CPU offlined through sysfs fails with ENODEV; a call stops at the driver's time cap;
#     the kernel logs no WARNING/BUG meanwhile;
# and the log check fails on a planted log (a zero cycles_x100, a SKIP without a reason, a
# RESULT without null_ns_x100).
# In:  $OUT (default out/): isobench, isobench-report, bzImage, initramfs.cpio.gz, IDENTITY
#      (./build.sh); qemu/run, qemu-system-x86_64, musl-gcc, initramfs/build.sh.
# Out: ok/FAIL lines, then finish's summary. About 3-4 min on a quiet 2-core host (5 TCG boots).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
use_tmp

rec='^@isobench/1 [0-9]+'

mapfile -t tests < <("$out/isobench" --list | awk '$2 == "ring0" {print $1}')
if [ "${#tests[@]}" -ge 8 ]; then pass "--list has ${#tests[@]} ring0 tests"
else fail "--list has ${#tests[@]} ring0 tests, want >= 8"; fi
list=$(IFS=,; echo "${tests[*]}")

# One rule for per-architecture tests (docs/architecture.md): every architecture's ring-0 probes
# are listed, each name once, x86-64's own list first in its order, then the others' it lacks
# (arm64's hvc and wfi; self_ipi, ipi, ipi_halt are on both lists: x86-64's). The lists read
# here from the driver's headers with sed, apart from the build's generator
# (payload/arch/ring0-others.sh); tests/test-arm64.sh holds the arm64 runner's list to this
# one's set.
d=$top/kernel-config/driver/arch
probe_names() { sed -n 's/^[[:space:]]*X([A-Z0-9_]*,[[:space:]]*\([a-z0-9_]*\),.*/ring0-\1/p' "$@"; }
mapfile -t own < <(probe_names "$d/x86_64/isobench_probe_arch.h")
mapfile -t others < <(probe_names "$d"/*/isobench_probe_arch.h | grep -vxF -f <(printf '%s\n' "${own[@]}") | awk '!seen[$0]++')
want="${own[*]} ${others[*]}"
if [ "${#own[@]}" -ge 17 ] && [ "${#others[@]}" -ge 2 ] && [ "${tests[*]}" = "$want" ]; then
	pass "--list: every architecture's ${#tests[@]} ring-0 probes, x86-64's ${#own[@]} first, then ${others[*]}"
else fail "--list's ring0 tests: '${tests[*]}', want '$want'"; fi
# owners_of NAME: the architectures (payload/arch/<folder>/arch.mk's ARCH_NAME) whose lists have
# the probe NAME and x86-64's does not, "arm64".
owners_of() {
	local f a=()
	for f in "$d"/*/isobench_probe_arch.h; do
		if [ "$f" != "$d/x86_64/isobench_probe_arch.h" ] && probe_names "$f" | grep -qxF "ring0-$1"; then
			f=${f%/*}
			a+=("$(sed -n 's/^ARCH_NAME := //p' "$top/payload/arch/${f##*/}/arch.mk")")
		fi
	done
	f=${a[*]}
	echo "${f// / and }"
}

# ---- natively: no driver ---------------------------------------------------------------
"$out/isobench" --suite quick --tests "$list" --copies 1 >"$tmp/native.log" 2>/dev/null
n=$(grep -acE "^@isobench/1 [0-9]+ SKIP test=ring0-[a-z0-9_]+ copies=1 reason=needs%20the%20image's%20kernel" "$tmp/native.log" || true)	# none: "0", status 1
if [ "$n" -eq "${#own[@]}" ]; then pass "natively x86-64's $n ring0 tests SKIP with \"needs the image's kernel\""
else fail "natively $n of x86-64's ${#own[@]} ring0 tests SKIP with \"needs the image's kernel\""; fi
# elsewhere LOG WHERE: each other architecture's probe SKIPs in LOG saying whose it is.
elsewhere() {
	local t o
	for t in "${others[@]}"; do
		o=$(owners_of "${t#ring0-}")
		has "$1" "^@isobench/1 [0-9]+ SKIP test=$t copies=1 reason=${t#ring0-}%20is%20an%20${o// /%20}%20ring-0%20probe " \
			"$2: $t SKIPs with \"${t#ring0-} is an $o ring-0 probe\""
	done
}
elsewhere "$tmp/native.log" natively

# ---- the image under TCG, 2 CPUs -------------------------------------------------------
st=0
"$top/qemu/run" --direct --accel tcg --cpus 2 --suite quick --tests "$list" --copies 1 \
	--timeout 240 --log "$tmp/tcg2.log" --out "$out" >"$tmp/tcg2.out" 2>&1 || st=$?
status_is EXIT_OK "$st" "qemu/run, TCG, 2 CPUs, the ring0 tests"
got=$(ring0_problems "$tmp/tcg2.log" "${tests[@]}") || true	# its list is the verdict
none "$got" "TCG 2 CPUs: every ring0 test has cycles > 0 and ns > 0, or SKIPs with a reason" \
	"TCG 2 CPUs: ring0 problems"
n=$(grep -acE '^@isobench/1 [0-9]+ RESULT test=ring0-' "$tmp/tcg2.log" || true)	# none: "0", status 1
if [ "$n" -ge 8 ]; then pass "TCG 2 CPUs: $n ring0 tests have results (>= 8)"
else fail "TCG 2 CPUs: only $n ring0 tests have results"; fi
for t in ring0-ipi ring0-ipi_halt ring0-self_ipi; do
	has "$tmp/tcg2.log" "^@isobench/1 [0-9]+ RESULT test=$t copies=1 " "TCG 2 CPUs: $t has a result"
done
has "$tmp/tcg2.log" "^@isobench/1 [0-9]+ SAMPLE test=ring0-ipi copies=1 .* target_cpu=1 " \
	"TCG 2 CPUs: ring0-ipi went to CPU 1"
# In the image too, with the driver there: another architecture's probe SKIPs naming it.
elsewhere "$tmp/tcg2.log" "TCG 2 CPUs"
hasnt "$tmp/tcg2.log" '(WARNING|BUG): ' "TCG 2 CPUs: the kernel logged no WARNING or BUG"
grep -aE '^@isobench/1 [0-9]+ (RESULT|SKIP) test=ring0-' "$tmp/tcg2.log" |
	sed -E 's/^@isobench\/1 [0-9]+ //; s/ \*[0-9a-f]+$//' | cut -c1-150 | sed 's/^/  /'

# The check itself fails on a planted log: a zero cycles_x100, a SKIP without a reason, a
# RESULT without its null figure.
sed -E -e '0,/ SAMPLE test=ring0-cpuid copies=1 i=/s/ cycles_x100=[0-9]+ / cycles_x100=0 /' \
	-e '/ RESULT test=ring0-mov_from_cr8 /s/ null_ns_x100=[0-9]+ / /' \
	"$tmp/tcg2.log" >"$tmp/planted.log"
got=$(ring0_problems "$tmp/planted.log" ring0-cpuid ring0-nosuch ring0-mov_from_cr8) || true	# its list is the verdict
if grep -q 'ring0-cpuid: 1 of' <<<"$got" && grep -q 'ring0-nosuch: neither' <<<"$got" &&
	grep -q 'ring0-mov_from_cr8: its RESULT lacks null_ns_x100' <<<"$got"; then
	pass "the log check fails on a planted zero cycles_x100, a missing test and a RESULT without null_ns_x100"
	while IFS= read -r l; do echo "  (expected) $l"; done <<<"$got"
else fail "the log check missed a planted problem: $(tr '\n' '|' <<<"$got")"; fi

# Every ring0 RESULT carries its null batch's figure (ring0_problems checked the values).
n=$(grep -acE "$rec RESULT test=ring0-[a-z0-9_]+ copies=1 .* null_ns_x100=[0-9]+ " "$tmp/tcg2.log" || true)	# none: "0", status 1
m=$(grep -acE "$rec RESULT test=ring0-" "$tmp/tcg2.log" || true)	# none: "0", status 1
if [ "$n" -eq "$m" ] && [ "$m" -gt 0 ]; then pass "TCG 2 CPUs: all $m ring0 RESULTs carry null_ns_x100"
else fail "TCG 2 CPUs: $n of $m ring0 RESULTs carry null_ns_x100"; fi
grep -aE "$rec RESULT test=ring0-" "$tmp/tcg2.log" | sed -E 's/.* test=(ring0-[a-z0-9_]+) .* value=([0-9.]+) .* null_ns_x100=([0-9]+) .*/  \1: \2 ns above a null batch of \3\/100 ns/'

# QEMU 7.2's TCG has no x2APIC (it warns "TCG doesn't support requested feature:
# CPUID.01H:ECX.x2apic"), so the guest's APIC is in xAPIC mode: the MMIO read runs and its
# MSR twin SKIPs saying why (the x2APIC side needs KVM or a newer QEMU).
has "$tmp/tcg2.log" "$rec RESULT test=ring0-mmio_lapic copies=1 " "TCG (xAPIC): ring0-mmio_lapic has a result"
has "$tmp/tcg2.log" "$rec SKIP test=ring0-rd_x2apic_ver_msr copies=1 reason=local%20APIC%20in%20xAPIC%20mode" \
	"TCG (xAPIC): ring0-rd_x2apic_ver_msr SKIPs saying the APIC is in xAPIC mode"
# QEMU's PC has an 8259 PIC, whose ELCR QEMU answers at port 0x4d0 (KVM's in-kernel PIC would).
has "$tmp/tcg2.log" "$rec RESULT test=ring0-inl_from_kernel copies=1 " "TCG: ring0-inl_from_kernel has a result"
# The kernel's own I/O delay is port 0x80 (CONFIG_IO_DELAY_0X80, no io_delay=): the probe runs.
has "$tmp/tcg2.log" "$rec RESULT test=ring0-outb_0x80 copies=1 " "default I/O delay (port 0x80): ring0-outb_0x80 has a result"

# ---- one CPU, io_delay=0xed: the IPI probes and outb_0x80 SKIP ---------------------------
st=0
"$top/qemu/run" --direct --accel tcg --cpus 1 --params "io_delay=0xed" --suite quick \
	--tests ring0-cpuid,ring0-self_ipi,ring0-ipi,ring0-ipi_halt,ring0-outb_0x80 --copies 1 \
	--timeout 180 --log "$tmp/tcg1.log" --out "$out" >"$tmp/tcg1.out" 2>&1 || st=$?
status_is EXIT_OK "$st" "qemu/run, TCG, 1 CPU, io_delay=0xed"
for t in ring0-ipi ring0-ipi_halt; do
	has "$tmp/tcg1.log" "^@isobench/1 [0-9]+ SKIP test=$t copies=1 reason=needs%20a%20second%20online%20CPU" \
		"1 CPU: $t SKIPs with \"needs a second online CPU\""
done
got=$(ring0_problems "$tmp/tcg1.log" ring0-cpuid ring0-self_ipi) || true	# its list is the verdict
none "$got" "1 CPU: ring0-cpuid and ring0-self_ipi still run" "1 CPU: ring0 problems"

# ---- outb_0x80 only where the kernel's own I/O delay is port 0x80 ---------------------------
# (arch/x86/kernel/io_delay.c: io_delay= sets io_delay_type; the DMI list of boards that lock
# up on port 0x80 sets 0xed the same way, which no QEMU machine matches.)
st=0
"$top/qemu/run" --direct --accel tcg --cpus 1 --params "io_delay=none" --suite quick \
	--tests ring0-outb_0x80,ring0-inl_from_kernel --copies 1 --timeout 120 \
	--log "$tmp/iod-none.log" --out "$out" >"$tmp/iod-none.out" 2>&1 || st=$?
status_is EXIT_OK "$st" "qemu/run, TCG, io_delay=none"
has "$tmp/tcg1.log" "$rec SKIP test=ring0-outb_0x80 copies=1 reason=the%20kernel's%20I/O%20delay%20is%20port%200xed%20" \
	"io_delay=0xed: ring0-outb_0x80 SKIPs saying the kernel's I/O delay is port 0xed"
has "$tmp/iod-none.log" "$rec SKIP test=ring0-outb_0x80 copies=1 reason=the%20kernel's%20I/O%20delay%20is%20none%20" \
	"io_delay=none: ring0-outb_0x80 SKIPs saying the kernel's I/O delay is none"
has "$tmp/iod-none.log" "$rec RESULT test=ring0-inl_from_kernel copies=1 " \
	"io_delay=none: the other port probe still runs"

# The kernel's own DMI list: QEMU's -smbios type=2 names the baseboard, and Quanta 30B7 is the
# list's "Compaq Presario V6000" (io_delay_0xed_port_dmi_table), so with no io_delay= the
# kernel moves its delay to port 0xed at boot and outb_0x80 must SKIP (a direct boot: qemu/run
# has no SMBIOS option).
st=0
timeout -k 5 150 qemu-system-x86_64 -nodefaults -accel tcg -cpu max -M pc -m 512 -smp 1 \
	-display none -no-reboot -serial "file:$tmp/dmi.log" \
	-smbios type=2,manufacturer=Quanta,product=30B7 -kernel "$out/bzImage" \
	-initrd "$out/initramfs.cpio.gz" -append "console=ttyS0 panic=-1 isobench.suite=quick \
isobench.copies=1 isobench.tests=ring0-outb_0x80" </dev/null >"$tmp/dmi.qemu" 2>&1 || st=$?
status_is EXIT_OK "$st" "the boot as a DMI-listed board (Quanta 30B7) powered off"
has "$tmp/dmi.log" "Compaq Presario V6000: using 0xed I/O delay port" \
	"DMI-listed board: the kernel moved its I/O delay to port 0xed"
has "$tmp/dmi.log" "$rec SKIP test=ring0-outb_0x80 copies=1 reason=the%20kernel's%20I/O%20delay%20is%20port%200xed%20" \
	"DMI-listed board: ring0-outb_0x80 SKIPs, port 0x80 untouched"

# ---- the ioctl's contract, from tests/ring0-abi.c as /init ------------------------------
ring0_init_boot ring0-abi 20

finish
