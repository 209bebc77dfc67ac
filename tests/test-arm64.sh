#!/usr/bin/env bash
# tests/test-arm64.sh — the arm64 image (ARCH=arm64 ./build.sh, out/arm64/), in CI:
#   * it builds (warm: seconds; cold: the arm64 kernel, ~9 min on 2 cores) and holds what the
#     README says: an arm64 EFI-stub Image, the initramfs of arm64 programs, IDENTITY, a
#     UEFI-only ISO whose FAT partition starts systemd-boot as \EFI\BOOT\BOOTAA64.EFI, the raw
#     disk, a kernel config with the arm64 fragment's devices and the clouds' drivers
#     (tests/lib.sh cloud_drivers), Debian's cloud-arm64 values for what a VM costs
#     (tests/kconfig-debian.py, kernel-config/vm-cost.symbols) and the CPPC cpufreq driver;
#   * the arm64 runner's own checks, run on this host under qemu-user (qemu-aarch64): its
#     instruction probes run or SKIP with their reasons, x86's SKIP, it lists arm64's ring0
#     probes first (ring0-hvc, ...: the driver's arm64 list, in its order), then x86-64's it
#     lacks: the same ring0 set as the x86-64 runner's (docs/architecture.md, one rule for
#     per-architecture tests); its own SKIP there for want of the image's kernel, x86-64's
#     saying whose they are; the machine header says aarch64 and recognises QEMU's emulated
#     CPU;
#   * isobench-report compares an aarch64 run with an x86-64 one with a note that it is a
#     machine comparison (issue 48; it refused them without --cross-arch before);
#   * two builds of HEAD for arm64 give the same bytes (the kernel from the shared cache, as
#     tests/test-repro.sh does for x86): out/arm64 when the checkout is HEAD, else a clean
#     clone, against a clean clone built seconds later in another directory;
#   * ONE boot: the UEFI ISO as a CD under qemu-system-aarch64 -M virt, TCG, 2 CPUs, a few
#     quick tests and the ring0 driver's ring0-hvc (PSCI over HVC: QEMU's PSCI emulation)
#     and ring0-ipi (an SGI round trip to CPU 1), and x86-64's ring0-cpuid, which SKIPs saying
#     it is an x86-64 probe; the log is complete and says kernel.machine=aarch64.
# The whole arm64 boot matrix (CD, raw disk, direct; every group) is opt-in:
# `tests/run arm64-matrix` (tests/arm64-matrix.sh).
# In: OUT (default out/; the arm64 image in OUT/arm64), ./build.sh and its packages (the
#     arm64 list included), qemu-user, qemu-system-aarch64, AAVMF, mtools, xorriso, cpio.
# Out: one line per check, then "N passed, M failed, K skipped". Exit 1 when a check failed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
use_tmp
OUT=${OUT:-$top/out}
o=$OUT/arm64
rep=$(report_tool)

# ---- the build ------------------------------------------------------------------------------
t0=$(_lib_usec)
st=0
(cd "$top" && ARCH=arm64 ./build.sh) >"$tmp/build.log" 2>&1 || st=$?
status_is EXIT_OK "$st" "ARCH=arm64 ./build.sh ($(_lib_secs $(($(_lib_usec) - t0))) s)"
if [ "$st" -ne 0 ]; then
	tail -n 5 "$tmp/build.log"
	finish
	exit
fi
for f in isobench.iso isobench.raw Image initramfs.cpio.gz IDENTITY isobench isobench-proc PACKAGES; do
	if [ -s "$o/$f" ]; then pass "out/arm64/$f written"; else fail "out/arm64/$f missing"; fi
done
n=$(grep -cE '^(musl|musl-dev|busybox-static|libc6|libpcre2-8-0|dash|coreutils|grep|systemd-boot-efi) [^ ]+ [0-9a-f]{64}$' "$o/PACKAGES" || true)	# none: "0", status 1
if [ "$n" -eq 9 ]; then pass "PACKAGES names the 9 Debian arm64 packages with version and sha256"
else fail "PACKAGES: $n of the 9 packages listed with version and sha256"; fi
# The Image: arm64's header magic at 0x38, and "MZ" at 0, the PE/COFF header of its EFI stub.
if [ "$(od -An -c -j 56 -N 4 "$o/Image" | tr -d ' ')" = ARMd ] && [ "$(head -c 2 "$o/Image")" = MZ ]; then
	pass "Image is an arm64 boot image with its EFI stub (ARM\\x64 magic, MZ header)"
else fail "Image: no arm64 magic or no PE header"; fi
id=$(cat "$o/IDENTITY")
want=$(cat "$o/Image" "$o/initramfs.cpio.gz" | sha256sum | cut -c1-64)
if [ "$id" = "$want" ]; then pass "IDENTITY is sha256(Image + initramfs)"; else fail "IDENTITY $id, want $want"; fi
machine_of() { LC_ALL=C readelf -hW "$1" 2>/dev/null | sed -n 's/^ *Machine: *//p'; }
interp_of() { LC_ALL=C readelf -lW "$1" 2>/dev/null | sed -n 's/.*program interpreter: \(.*\)]$/\1/p'; }
if [ "$(machine_of "$o/isobench")" = AArch64 ] && [ -z "$(interp_of "$o/isobench")" ]; then
	pass "the arm64 runner is a static AArch64 ELF"
else fail "out/arm64/isobench: machine '$(machine_of "$o/isobench")', interpreter '$(interp_of "$o/isobench")'"; fi
if [ "$(machine_of "$o/isobench-proc")" = AArch64 ] &&
	[ "$(interp_of "$o/isobench-proc")" = /lib/ld-linux-aarch64.so.1 ]; then
	pass "isobench-proc is a dynamically linked AArch64 ELF (glibc's loader)"
else fail "out/arm64/isobench-proc: machine '$(machine_of "$o/isobench-proc")', interpreter '$(interp_of "$o/isobench-proc")'"; fi

# The initramfs: arm64 programs and what they load.
mkdir -p "$tmp/initrd"
(cd "$tmp/initrd" && zcat "$o/initramfs.cpio.gz" | cpio -idm --quiet 2>/dev/null)
bad_elf=
for f in init bin/busybox usr/lib/isobench/bin/dash usr/lib/isobench/bin/sort lib/ld-linux-aarch64.so.1 \
	lib/aarch64-linux-gnu/libc.so.6 lib/aarch64-linux-gnu/libpcre2-8.so.0 usr/lib/isobench/isobench-proc; do
	[ "$(machine_of "$tmp/initrd/$f")" = AArch64 ] || bad_elf="$bad_elf $f"
done
none "$bad_elf" "the initramfs's programs and libraries are AArch64 (busybox, dash, coreutils, glibc)" \
	"initramfs entries missing or not AArch64"

# The ISO's FAT partition (GPT partition 2): systemd-boot, its default entry.
read -r pstart psize < <(xorriso -indev "$o/isobench.iso" -report_system_area plain 2>/dev/null |
	sed -n 's/^GPT start and size : *2 *\([0-9]*\) *\([0-9]*\)$/\1 \2/p')
if [ -n "${pstart:-}" ]; then
	dd if="$o/isobench.iso" of="$tmp/esp.img" bs=512 skip="$pstart" count="$psize" 2>/dev/null
	mcopy -n -i "$tmp/esp.img" ::/EFI/BOOT/BOOTAA64.EFI "$tmp/boot.efi" 2>/dev/null
	# PE machine (the u16 after "PE\0\0", at the offset in 0x3c): 0xaa64 is arm64.
	pe=$(od -An -tu4 -j 60 -N 4 "$tmp/boot.efi" 2>/dev/null | tr -d ' ')
	if [ -n "$pe" ] && [ "$(od -An -tx2 -j $((pe + 4)) -N 2 "$tmp/boot.efi" | tr -d ' ')" = aa64 ]; then
		pass "\\EFI\\BOOT\\BOOTAA64.EFI on the ISO's GPT FAT partition is an arm64 EFI program"
	else fail "no arm64 \\EFI\\BOOT\\BOOTAA64.EFI on partition 2"; fi
	mtype -i "$tmp/esp.img" ::/loader/loader.conf >"$tmp/loader.conf" 2>/dev/null
	def=$(sed -n 's/^default //p' "$tmp/loader.conf")
	mtype -i "$tmp/esp.img" "::/loader/entries/$def" >"$tmp/entry.conf" 2>/dev/null
	has "$tmp/entry.conf" "^options .*console=ttyAMA0,115200 .*isobench.image=$id" \
		"the default boot entry ($def) has the PL011 console and the image identity"
	has "$tmp/entry.conf" '^linux +/isobench/Image.efi$' "the entry starts the kernel's EFI stub"
else
	fail "the ISO has no GPT partition 2"
fi
sz=$(stat -c %s "$o/isobench.iso")
if cmp -s -n "$sz" "$o/isobench.iso" "$o/isobench.raw" && [ $(($(stat -c %s "$o/isobench.raw") % 1048576)) -eq 0 ]; then
	pass "isobench.raw is the ISO padded to whole MiB"
else fail "isobench.raw is not the ISO padded to a MiB"; fi
cfgs=(CONFIG_PCI_HOST_GENERIC=y CONFIG_ARM_GIC=y CONFIG_ARM_GIC_V3=y CONFIG_SERIAL_AMBA_PL011_CONSOLE=y
	CONFIG_SERIAL_8250_CONSOLE=y CONFIG_EFI_STUB=y CONFIG_ACPI=y CONFIG_OF=y CONFIG_BLK_DEV_NVME=y
	CONFIG_SATA_AHCI=y CONFIG_USB_XHCI_HCD=y CONFIG_VIRTIO_PCI=y)
miss=
for c in "${cfgs[@]}"; do grep -qx "$c" "$o/kernel.config" || miss="$miss $c"; done
none "$miss" "the arm64 kernel has ECAM PCIe, GICv2/v3, PL011 + 8250, EFI stub, ACPI + DT, NVMe, AHCI, xHCI" \
	"the arm64 kernel config lacks"
mapfile -t clouds < <(cloud_drivers aarch64)
kconfig_has "$o/kernel.config" "the arm64 kernel has the clouds' NIC, disk and console drivers built in (Graviton, Tau T2A, Ampere)" "${clouds[@]}"
# What a VM costs, as Debian's cloud-arm64 kernel (its config: the sysroot's reference package),
# and the CPU clock and idle support (CPPC cpufreq, AMU): tests/kconfig-debian.py, as
# tests/test-kconfig.sh runs it for x86 (there, arm64's only when this build is already done).
st=0
python3 "$top/tests/kconfig-debian.py" "aarch64=$o/kernel.config" >"$tmp/kconfig.out" 2>&1 || st=$?
grep '^FAIL: ' "$tmp/kconfig.out" || true	# the failures shown (none: nothing)
status_is EXIT_OK "$st" "the arm64 kernel's vm-cost.symbols: Debian's cloud-arm64 values or written reasons, cpufreq/idle in ($(grep -c '^ok: ' "$tmp/kconfig.out") compared)"
[ "$st" -eq 0 ] || head -n 2 "$tmp/kconfig.out"

# ---- the clouds' files for arm64 instances (ARCH=arm64 ./build.sh disks) ---------------------
# image/build-disks.sh's arm64 mode on this ISO: every file but the OVA (its OVF is an x86 VM),
# each held to its provider's rules by the same tests/disk-rules.py as x86's (test-disks.sh).
st=0
"$top/image/build-disks.sh" "$tmp/adisk" "$o/isobench.iso" arm64 >"$tmp/adisk.err" 2>&1 || st=$?
status_is EXIT_OK "$st" "arm64 cloud files: image/build-disks.sh ... arm64"
ls "$tmp/adisk" >"$tmp/adisk.ls" 2>/dev/null || true
if [ "$(tr '\n' ' ' <"$tmp/adisk.ls")" = "isobench-azure.vhd isobench-gce.tar.gz isobench-stream.vmdk isobench.qcow2 isobench.raw isobench.vhdx isobench.vmdk " ]; then
	pass "arm64 cloud files: GCE's archive, Azure's fixed VHD, the stream VMDK, qcow2, VHDX, VMDK, raw; no OVA"
else fail "arm64 cloud files: $(tr '\n' ' ' <"$tmp/adisk.ls")"; fi
for kf in gce:isobench-gce.tar.gz vhd:isobench-azure.vhd vmdk:isobench-stream.vmdk; do
	st=0
	python3 "$top/tests/disk-rules.py" "${kf%%:*}" "$tmp/adisk/${kf#*:}" "$tmp/adisk/isobench.raw" >"$tmp/arules.out" 2>&1 || st=$?
	if [ "$st" -eq 0 ] && ! grep -q '^FAIL' "$tmp/arules.out"; then
		pass "arm64 ${kf#*:}: every rule of its provider held ($(grep -c '^ok' "$tmp/arules.out") rules)"
	else fail "arm64 ${kf#*:}: disk-rules.py status $st: $(grep -v '^ok' "$tmp/arules.out" | head -n 2 | tr '\n' '|')"; fi
done

# ---- the arm64 runner's own checks, under qemu-user -----------------------------------------
if ! command -v qemu-aarch64 >/dev/null; then
	skip "arm64 runner checks: no qemu-aarch64 (apt-get install qemu-user)"
else
	probes=clock-cntvct,clock-cntpct,trap-mrs-idreg,trap-wfi,vmexit-wfe,vmexit-wfe-wake,vmexit-cpuid,clock-rdtsc,ring0-hvc,ring0-cpuid
	st=0
	(cd "$tmp" && qemu-aarch64 "$o/isobench" --suite quick --tests "$probes" --copies 1 >a64.log 2>&1) || st=$?
	ran EXIT_OK "$st" "$tmp/a64.log" "the arm64 runner under qemu-aarch64"
	for t in clock-cntvct trap-mrs-idreg trap-wfi vmexit-wfe vmexit-wfe-wake; do
		has "$tmp/a64.log" "^@isobench/1 [0-9]+ RESULT test=$t .*value=[0-9.]*[1-9]" "$t gives a result"
	done
	has "$tmp/a64.log" 'SKIP test=clock-cntpct .*reason=CNTPCT_EL0%20is%20not%20readable%20at%20EL0' \
		"clock-cntpct SKIPs where EL0 may not read the physical counter (Linux's default)"
	has "$tmp/a64.log" 'SKIP test=vmexit-cpuid .*reason=CPUID%20is%20an%20x86%20instruction%20\(arm64:%20trap-mrs-idreg\)' \
		"x86's vmexit-cpuid SKIPs on arm64, naming the arm64 probe"
	has "$tmp/a64.log" "SKIP test=ring0-hvc .*reason=needs%20the%20image's%20kernel" \
		"ring0-hvc SKIPs under qemu-user (no driver there), as every ring0 test of its own natively"
	has "$tmp/a64.log" "SKIP test=ring0-cpuid .*reason=cpuid%20is%20an%20x86-64%20ring-0%20probe " \
		"x86-64's ring0-cpuid SKIPs on arm64 saying whose probe it is"
	(cd "$tmp" && qemu-aarch64 "$o/isobench" --list >a64.list 2>&1) || true	# the list is checked
	r0=$(awk '$2 == "ring0" {print $1}' "$tmp/a64.list" | tr '\n' ' ')
	x0=$("$OUT/isobench" --list | awk '$2 == "ring0" {print $1}' | tr '\n' ' ')
	a0="ring0-hvc ring0-self_ipi ring0-ipi ring0-ipi_halt ring0-wfi "	# arm64's list, its order
	if [ "${r0:0:${#a0}}" = "$a0" ] && [ "$(tr ' ' '\n' <<<"$r0" | sort)" = "$(tr ' ' '\n' <<<"$x0" | sort)" ] &&
		[ -z "$(tr ' ' '\n' <<<"$r0" | sort | uniq -d)" ]; then
		pass "the arm64 runner lists arm64's ring0 probes first, then x86-64's: the x86-64 runner's $(wc -w <<<"$r0") ring0 tests, each once"
	else fail "the arm64 runner's ring0 tests: '$r0'; the x86-64 runner's: '$x0'"; fi
	has "$tmp/a64.log" 'INFO .*kernel.machine=aarch64' "the header says kernel.machine=aarch64"
	has "$tmp/a64.log" 'INFO .*hv.cpuid=TCGTCGTCGTCG' "QEMU's emulated max CPU is recognised as TCG"
	"$rep" "$tmp/a64.log" >"$tmp/a64.txt" 2>&1 || true	# its text is checked
	has "$tmp/a64.txt" '^CNTVCT_EL0 read .* [0-9.]+ CNTVCT ticks' "the report names arm64's counter ticks, not TSC cycles"
	(cd "$tmp" && qemu-aarch64 -cpu cortex-a72 "$o/isobench" --suite quick --tests getpid --copies 1 >a72.log 2>&1) || true	# its log is checked
	has "$tmp/a72.log" 'INFO cpu.model=implementer%200x41%20part%200xd08%20' "the brand is MIDR_EL1's (Arm Cortex-A72)"
	has "$tmp/a72.log" 'INFO .*hv.cpuid=none' "a named CPU model is not taken for QEMU's max"

	# ---- isobench-report: a cross-architecture comparison is a machine comparison ----------
	(cd "$tmp" && "$OUT/isobench" --suite quick --tests getpid --copies 1 >x86.log 2>&1) || true	# the logs are compared
	(cd "$tmp" && "$OUT/isobench" --suite quick --tests getpid --copies 1 >x86b.log 2>&1) || true
	(cd "$tmp" && qemu-aarch64 "$o/isobench" --suite quick --tests getpid --copies 1 >a64b.log 2>&1) || true
	st=0
	"$rep" "$tmp/x86.log" "$tmp/a64b.log" >"$tmp/cross.out" 2>&1 || st=$?
	if [ "$st" -eq "$EXIT_OK" ] || [ "$st" -eq "$EXIT_DIFFERS" ]; then pass "x86_64 beside aarch64 is compared (status $st)"
	else fail "x86_64 beside aarch64: status $st: $(head -c 200 "$tmp/cross.out")"; fi
	has "$tmp/cross.out" 'note: a machine comparison: .* is x86_64 and .* is aarch64' "the comparison says it is of the two machines"
	st=0
	"$rep" "$tmp/x86.log" "$tmp/x86b.log" >/dev/null 2>&1 || st=$?
	if [ "$st" -ne "$EXIT_USAGE" ]; then pass "two x86_64 runs are compared as before (status $st)"
	else fail "two x86_64 runs refused (status $st, EXIT_USAGE)"; fi
fi

# ---- reproducible: two builds of HEAD in other directories, at other times --------------------
# The first is out/arm64, built above from this checkout, when the checkout is HEAD (nothing
# modified or untracked: a fresh clone, as on a new machine); else a clean clone too. The second
# is always a clean clone, in $tmp, seconds later.
ok_a=0
if [ -z "$(git -C "$top" status --porcelain)" ]; then
	ra=$o ra_what="out/arm64 (this checkout is HEAD)"
else
	ra=$tmp/ra/out/arm64 ra_what="a clean clone"
	clean_build "$tmp/ra" ARCH=arm64 || ok_a=1
fi
if [ "$ok_a" -eq 0 ] && sleep 2 && clean_build "$tmp/rb" ARCH=arm64; then
	for f in isobench.iso isobench.raw Image initramfs.cpio.gz IDENTITY isobench; do
		if cmp -s "$ra/$f" "$tmp/rb/out/arm64/$f"; then
			pass "two arm64 builds of HEAD ($ra_what, a clean clone): $f identical ($(sha256_of "$ra/$f" | cut -c1-16))"
		else fail "two arm64 builds of HEAD ($ra_what, a clean clone): $f differs"; fi
	done
else
	fail "a clean arm64 build of HEAD failed: $(tail -n 1 "$tmp/ra.log" "$tmp/rb.log" 2>/dev/null | tr '\n' ' ')"
fi
rm -rf "$tmp/ra" "$tmp/rb"

# ---- one boot: the UEFI ISO as a CD, TCG --------------------------------------------------
log=$tmp/boot.log
t0=$(_lib_usec)
st=0
"$top/qemu/run" --arch arm64 --accel tcg --suite quick --copies 1 \
	--tests dhry2reg,syscall,clock-cntvct,trap-mrs-idreg,ring0-hvc,ring0-ipi,ring0-cpuid --timeout 300 --log "$log" >"$tmp/boot.out" 2>&1 || st=$?
status_is EXIT_OK "$st" "qemu/run --arch arm64: the UEFI ISO as a CD under TCG ($(_lib_secs $(($(_lib_usec) - t0))) s)"
complete "$log" "the arm64 boot's log is one complete run"
has "$log" '^@isobench/1 [0-9]+ INFO .*kernel.machine=aarch64' "the boot's log says INFO kernel.machine=aarch64"
has "$log" "image.identity=$id" "the boot ran this image (image.identity)"
count_is "$log" '^@isobench/1 [0-9]+ RESULT ' 6 "the boot's six tests gave results"
# The ring-0 driver on arm64: an HVC round trip and an SGI round trip, each a RESULT that
# carries its null batch's figure (null_ns_x100) and whose measured SAMPLEs all carry CNTVCT
# ticks and ns > 0 (ring0_problems, tests/lib.sh; a SKIP does not pass here: a planted zero
# and a RESULT without null_ns_x100 are caught in tests/test-ring0.sh).
for t in ring0-hvc ring0-ipi; do
	has "$log" "^@isobench/1 [0-9]+ RESULT test=$t " "$t: a result through the arm64 driver"
done
none "$(ring0_problems "$log" ring0-hvc ring0-ipi)" \
	"ring0-hvc, ring0-ipi: null_ns_x100 on the RESULT, CNTVCT ticks and ns > 0 in every measured SAMPLE" \
	"arm64 ring0 problems"
has "$log" '^@isobench/1 [0-9]+ SAMPLE test=ring0-ipi copies=1 .* target_cpu=1 ' "ring0-ipi: the SGI went to CPU 1"
has "$log" '^@isobench/1 [0-9]+ SKIP test=ring0-cpuid copies=1 reason=cpuid%20is%20an%20x86-64%20ring-0%20probe ' \
	"x86-64's ring0-cpuid SKIPs in the arm64 image (the driver there) saying whose probe it is"
grep -aE '^@isobench/1 [0-9]+ RESULT test=ring0-' "$log" | cut -c1-150 | sed 's/^/  /' || true
has "$log" 'reboot: Power down' "the guest powered off"
# The wall clock comes from the RTC (arm64 has no early read of it: HCTOSYS), not 1970.
has "$log" "INFO .*run.utc=$(date -u +%Y)-" "the guest's clock is the RTC's (run.utc in $(date -u +%Y))"
grep -a 'first BEGIN after' "$tmp/boot.out" || true

# ---- EL2 (virt,virtualization=on): PSCI over SMC, so ring0-hvc SKIPs naming the conduit -----
st=0
"$top/qemu/run" --arch arm64 --accel tcg --direct --machine virt,virtualization=on --suite quick \
	--copies 1 --tests ring0-hvc,ring0-ipi --timeout 120 --log "$tmp/el2.log" >"$tmp/el2.out" 2>&1 || st=$?
status_is EXIT_OK "$st" "qemu/run --arch arm64 --direct --machine virt,virtualization=on"
has "$tmp/el2.log" '^@isobench/1 [0-9]+ SKIP test=ring0-hvc .*reason=.*conduit%20is%20SMC' \
	"EL2 present: ring0-hvc SKIPs naming the SMC conduit"
has "$tmp/el2.log" '^@isobench/1 [0-9]+ RESULT test=ring0-ipi ' "EL2 present: ring0-ipi still runs"

# ---- too little memory for AAVMF: it faults and stops; qemu/run says why at the timeout ------
st=0
"$top/qemu/run" --arch arm64 --accel tcg --mem 96M --suite quick --copies 1 --tests syscall \
	--timeout 20 --log "$tmp/lowmem.log" >"$tmp/lowmem.out" 2>&1 || st=$?
status_is EXIT_TIMEOUT "$st" "qemu/run --arch arm64 --mem 96M: the firmware stops, timeout"
has "$tmp/lowmem.out" "UEFI firmware faulted before the kernel started.*too little memory for --mem 96M.*128M by UEFI" \
	"... and the timeout names too little memory (README's arm64 figure)"
finish
