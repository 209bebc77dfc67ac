#!/usr/bin/env bash
# tests/test-ring0.sh — the ring0 group and its driver on x86-64 (kernel-config/driver/isobench_probe.c
# and driver/arch/x86_64/; arm64's probes are booted by tests/test-arm64.sh):
#   * natively (no driver) every ring0-* test SKIPs with "needs the image's kernel";
#   * in the image under TCG, 2 CPUs: every ring0-* test has a RESULT whose measured SAMPLEs
#     carry cycles_x100 > 0 and op_ns_x100 > 0, or SKIPs with a reason; at least eight have
#     results; no FAIL (the values are emulation: plumbing, not a hypervisor's cost);
#   * with 1 CPU the IPI probes SKIP ("needs a second online CPU") and cpuid still runs;
#   * tests/ring0-abi.c as /init: the ioctl rejects bad probe numbers, iteration counts, CPUs,
#     version and flags; a probe on a CPU offlined through sysfs fails with ENODEV; a call
#     stops at the driver's time cap; the kernel logs no WARNING/BUG meanwhile;
# and the log check fails on a planted log (a zero cycles_x100, a SKIP without a reason).
# In:  $OUT (default out/): isobench, isobench-report, bzImage, initramfs.cpio.gz, IDENTITY
#      (./build.sh); qemu/run, qemu-system-x86_64, musl-gcc, initramfs/build.sh.
# Out: ok/FAIL lines, then finish's summary. About 2-3 min on a quiet 2-core host (3 TCG boots).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
use_tmp

mapfile -t tests < <("$out/isobench" --list | awk '$2 == "ring0" {print $1}')
if [ "${#tests[@]}" -ge 8 ]; then pass "--list has ${#tests[@]} ring0 tests"
else fail "--list has ${#tests[@]} ring0 tests, want >= 8"; fi
list=$(IFS=,; echo "${tests[*]}")

# ---- natively: no driver ---------------------------------------------------------------
"$out/isobench" --suite quick --tests "$list" --copies 1 >"$tmp/native.log" 2>/dev/null
n=$(grep -acE "^@isobench/1 [0-9]+ SKIP test=ring0-[a-z0-9_]+ copies=1 reason=needs%20the%20image's%20kernel" "$tmp/native.log")
if [ "$n" -eq "${#tests[@]}" ]; then pass "natively all $n ring0 tests SKIP with \"needs the image's kernel\""
else fail "natively $n of ${#tests[@]} ring0 tests SKIP with \"needs the image's kernel\""; fi

# ---- the image under TCG, 2 CPUs -------------------------------------------------------
st=0
"$top/qemu/run" --direct --accel tcg --cpus 2 --suite quick --tests "$list" --copies 1 \
	--timeout 240 --log "$tmp/tcg2.log" --out "$out" >"$tmp/tcg2.out" 2>&1 || st=$?
status_is EXIT_OK "$st" "qemu/run, TCG, 2 CPUs, the ring0 tests"
got=$(ring0_problems "$tmp/tcg2.log" "${tests[@]}")
none "$got" "TCG 2 CPUs: every ring0 test has cycles > 0 and ns > 0, or SKIPs with a reason" \
	"TCG 2 CPUs: ring0 problems"
n=$(grep -acE '^@isobench/1 [0-9]+ RESULT test=ring0-' "$tmp/tcg2.log")
if [ "$n" -ge 8 ]; then pass "TCG 2 CPUs: $n ring0 tests have results (>= 8)"
else fail "TCG 2 CPUs: only $n ring0 tests have results"; fi
for t in ring0-ipi ring0-ipi_halt ring0-self_ipi; do
	has "$tmp/tcg2.log" "^@isobench/1 [0-9]+ RESULT test=$t copies=1 " "TCG 2 CPUs: $t has a result"
done
has "$tmp/tcg2.log" "^@isobench/1 [0-9]+ SAMPLE test=ring0-ipi copies=1 .* target_cpu=1 " \
	"TCG 2 CPUs: ring0-ipi went to CPU 1"
hasnt "$tmp/tcg2.log" '(WARNING|BUG): ' "TCG 2 CPUs: the kernel logged no WARNING or BUG"
grep -aE '^@isobench/1 [0-9]+ (RESULT|SKIP) test=ring0-' "$tmp/tcg2.log" |
	sed -E 's/^@isobench\/1 [0-9]+ //; s/ \*[0-9a-f]+$//' | cut -c1-150 | sed 's/^/  /'

# The check itself fails on a planted log: a zero cycles_x100, a SKIP without a reason.
sed -E '0,/ SAMPLE test=ring0-cpuid copies=1 i=/s/ cycles_x100=[0-9]+ / cycles_x100=0 /' \
	"$tmp/tcg2.log" >"$tmp/planted.log"
got=$(ring0_problems "$tmp/planted.log" ring0-cpuid ring0-nosuch)
if grep -q 'ring0-cpuid: 1 of' <<<"$got" && grep -q 'ring0-nosuch: neither' <<<"$got"; then
	pass "the log check fails on a planted zero cycles_x100 and a missing test"
	while IFS= read -r l; do echo "  (expected) $l"; done <<<"$got"
else fail "the log check missed a planted problem: $(tr '\n' '|' <<<"$got")"; fi

# ---- one CPU: the IPI probes SKIP -------------------------------------------------------
st=0
"$top/qemu/run" --direct --accel tcg --cpus 1 --suite quick \
	--tests ring0-cpuid,ring0-self_ipi,ring0-ipi,ring0-ipi_halt --copies 1 --timeout 180 \
	--log "$tmp/tcg1.log" --out "$out" >"$tmp/tcg1.out" 2>&1 || st=$?
status_is EXIT_OK "$st" "qemu/run, TCG, 1 CPU"
for t in ring0-ipi ring0-ipi_halt; do
	has "$tmp/tcg1.log" "^@isobench/1 [0-9]+ SKIP test=$t copies=1 reason=needs%20a%20second%20online%20CPU" \
		"1 CPU: $t SKIPs with \"needs a second online CPU\""
done
got=$(ring0_problems "$tmp/tcg1.log" ring0-cpuid ring0-self_ipi)
none "$got" "1 CPU: ring0-cpuid and ring0-self_ipi still run" "1 CPU: ring0 problems"

# ---- the ioctl's contract, from tests/ring0-abi.c as /init ------------------------------
ring0_init_boot ring0-abi 19

finish
