#!/usr/bin/env bash
# tests/test-kconfig.sh — our kernels against Debian's cloud kernel (issue 45: a guest kernel like
# users' guests; the CPU clock and idle support in both kernels):
#   * every symbol of kernel-config/vm-cost.symbols has, in the built kernel, the value of
#     Debian's cloud kernel of the same series (linux-config-<series>, read now) or a written
#     reason (tests/kconfig-debian.py does the comparison; vm-cost.symbols says the rule), and
#     the symbols that list says an architecture needs (cpufreq, cpuidle, ACPI processor,
#     intel_pstate/amd-pstate/acpi-cpufreq and X86_MSR; CPPC cpufreq and AMU on arm64) are y;
#   * the check fails on planted divergences, each in a copy: the timer back at HZ_1000, a
#     reason removed, a needed driver missing, a stale reason, Debian's value changed, a typo
#     in the list.
# In: OUT (default out/): OUT/kernel.config (./build.sh) and OUT/arm64/kernel.config (ARCH=arm64
#     ./build.sh; compared when it is newer than every fragment, else SKIP: tests/test-arm64.sh
#     compares it after its own build); Debian's configurations (x86: package linux-config-6.1
#     from build.sh's test list; arm64: cross/sysroot.sh's reference package).
# Out: one line per check, then "N passed, M failed, K skipped". Exit 1 when a check failed.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
use_tmp
OUT=${OUT:-$top/out}
cmp=$top/tests/kconfig-debian.py
frag=$top/kernel-config

# compare NAME ARGS...: tests/kconfig-debian.py ARGS into $tmp/NAME.out, its status in $st.
compare() {
	local name=$1
	shift
	st=0
	python3 "$cmp" "$@" >"$tmp/$name.out" 2>&1 || st=$?
}

# ---- the built kernels -----------------------------------------------------------------------
[ -f "$OUT/kernel.config" ] || die "no $OUT/kernel.config: run ./build.sh first"
kernels=("x86_64=$OUT/kernel.config")
arm=$OUT/arm64/kernel.config
if [ ! -f "$arm" ]; then
	skip "arm64 kernel: no $arm (ARCH=arm64 ./build.sh; tests/test-arm64.sh compares it after building)"
elif [ "$arm" -ot "$frag/isobench.config" ] || [ "$arm" -ot "$frag/arch/aarch64.config" ]; then
	skip "arm64 kernel: $arm is older than the fragments (tests/test-arm64.sh compares it after building)"
else
	kernels+=("aarch64=$arm")
fi
compare real "${kernels[@]}"
grep '^FAIL: ' "$tmp/real.out" || true	# the failures shown (none: nothing)
sed -n 's/^ok: \(.*; reason: .*\)/  (\1)/p' "$tmp/real.out" | cut -c1-160	# the differences, shown
for k in "${kernels[@]}"; do
	a=${k%%=*}
	n=$(grep -c "^ok: $a " "$tmp/real.out" || true)	# none: "0", status 1
	d=$(grep -c "^ok: $a .*; reason: " "$tmp/real.out" || true)	# none: "0", status 1
	if [ "$n" -gt 40 ] && ! grep -q "^FAIL: $a " "$tmp/real.out"; then
		pass "$a kernel: $n symbols of vm-cost.symbols compared with Debian's cloud kernel, $((n - d)) equal, $d with a written reason"
	else
		fail "$a kernel: $(grep -c "^FAIL: $a " "$tmp/real.out") symbols differ from Debian's without a reason or miss ($n compared)"
	fi
done
status_is EXIT_OK "$st" "tests/kconfig-debian.py on the built kernels ($(grep -c '^FAIL' "$tmp/real.out") failures)"
[ "$st" -eq 0 ] || head -n 3 "$tmp/real.out"
# The comparison reads what it should: Debian's cloud config of our series, and real values.
has "$tmp/real.out" "^x86_64: ours .*, Debian's /usr/src/linux-config-[0-9]+\.[0-9]+/config\.amd64_none_cloud-amd64\.xz$" \
	"x86: compared with Debian's cloud-amd64 config of our kernel's series"
has "$tmp/real.out" '^ok: x86_64 CONFIG_HZ=250, as Debian' "x86: the timer at Debian's 250 Hz"
has "$tmp/real.out" '^ok: x86_64 CONFIG_PARAVIRT_SPINLOCKS=y, as Debian' "x86: paravirtual spinlocks, as Debian's"
has "$tmp/real.out" '^ok: x86_64 CONFIG_X86_INTEL_PSTATE=y' "x86: intel_pstate in the kernel"

# ---- planted divergences: each must fail, naming the symbol ------------------------------------
deb=$(sed -n "s/^x86_64: ours .*, Debian's //p" "$tmp/real.out")
xzcat "$deb" >"$tmp/debian.config" 2>/dev/null || die "cannot read $deb"
cp "$OUT/kernel.config" "$tmp/ours.config"
cp -r "$frag" "$tmp/frag"

# 1. The timer back at 1000 Hz in our kernel (the value before issue 45).
sed -e 's/^CONFIG_HZ_250=y$/# CONFIG_HZ_250 is not set/' -e 's/^# CONFIG_HZ_1000 is not set$/CONFIG_HZ_1000=y/' \
	-e 's/^CONFIG_HZ=250$/CONFIG_HZ=1000/' "$tmp/ours.config" >"$tmp/hz.config"
compare hz "x86_64=$tmp/hz.config=$tmp/debian.config"
status_is CMD_FAILED "$st" "planted HZ_1000: the check fails"
has "$tmp/hz.out" "^FAIL: x86_64 CONFIG_HZ=1000 but Debian's cloud kernel has 250" "... naming CONFIG_HZ and both values"
has "$tmp/hz.out" "^FAIL: x86_64 CONFIG_HZ_1000=y but Debian's cloud kernel has n" "... and CONFIG_HZ_1000"

# 2. A written reason removed: intel_idle (on here, off in Debian's cloud kernel) then has none.
grep -v "^# Unlike Debian's cloud kernel: intel_idle" "$frag/arch/x86_64.config" >"$tmp/frag/arch/x86_64.config"
compare why --fragments "$tmp/frag" "x86_64=$tmp/ours.config=$tmp/debian.config"
status_is CMD_FAILED "$st" "planted: the reason above CONFIG_INTEL_IDLE removed, the check fails"
has "$tmp/why.out" "^FAIL: x86_64 CONFIG_INTEL_IDLE=y but Debian's cloud kernel has n, and no" "... naming CONFIG_INTEL_IDLE"
cp "$frag/arch/x86_64.config" "$tmp/frag/arch/x86_64.config"

# 3. A needed cpufreq driver missing from our kernel (Debian's too: the need holds regardless).
sed 's/^CONFIG_X86_INTEL_PSTATE=y$/# CONFIG_X86_INTEL_PSTATE is not set/' "$tmp/ours.config" >"$tmp/need.config"
sed 's/^CONFIG_X86_INTEL_PSTATE=y$/# CONFIG_X86_INTEL_PSTATE is not set/' "$tmp/debian.config" >"$tmp/need-deb.config"
compare need "x86_64=$tmp/need.config=$tmp/need-deb.config"
status_is CMD_FAILED "$st" "planted: no intel_pstate in either kernel, the check fails"
has "$tmp/need.out" "^FAIL: x86_64 CONFIG_X86_INTEL_PSTATE=n: vm-cost.symbols says the x86_64 kernel needs it" \
	"... naming CONFIG_X86_INTEL_PSTATE as needed"

# 4. A stale reason: written above a symbol that matches Debian's (PARAVIRT_SPINLOCKS).
awk '/^CONFIG_PARAVIRT_SPINLOCKS=y$/ { print ""; print "# Unlike Debian'"'"'s cloud kernel: planted" }
	{ print }' "$frag/arch/x86_64.config" >"$tmp/frag/arch/x86_64.config"
compare stale --fragments "$tmp/frag" "x86_64=$tmp/ours.config=$tmp/debian.config"
status_is CMD_FAILED "$st" "planted: a reason above a symbol equal to Debian's, the check fails"
has "$tmp/stale.out" "^FAIL: x86_64.config: a reason is written above CONFIG_PARAVIRT_SPINLOCKS but it matches" \
	"... naming the stale reason"
cp "$frag/arch/x86_64.config" "$tmp/frag/arch/x86_64.config"

# 5. Debian's side moves (a new release turns PARAVIRT_SPINLOCKS off): ours now differs.
sed 's/^CONFIG_PARAVIRT_SPINLOCKS=y$/# CONFIG_PARAVIRT_SPINLOCKS is not set/' "$tmp/debian.config" >"$tmp/deb5.config"
compare deb5 "x86_64=$tmp/ours.config=$tmp/deb5.config"
status_is CMD_FAILED "$st" "planted: Debian's PARAVIRT_SPINLOCKS off, the check fails"
has "$tmp/deb5.out" "^FAIL: x86_64 CONFIG_PARAVIRT_SPINLOCKS=y but Debian's cloud kernel has n" "... naming it"

# 6. A typo in the list (judged with every architecture given: the x86 configs stand in for
# arm64's here, only the typo's line is looked for).
{ cat "$frag/vm-cost.symbols"; echo CONFIG_HZ_1OOO; } >"$tmp/frag/vm-cost.symbols"
compare typo --fragments "$tmp/frag" "x86_64=$tmp/ours.config=$tmp/debian.config" \
	"aarch64=$tmp/ours.config=$tmp/debian.config"
status_is CMD_FAILED "$st" "planted: a symbol no config knows in the list, the check fails"
has "$tmp/typo.out" "^FAIL: CONFIG_HZ_1OOO: in none of the configs" "... naming it"
cp "$frag/vm-cost.symbols" "$tmp/frag/vm-cost.symbols"

# The unchanged copies pass (the failures above are the plants', not the copies').
compare copy --fragments "$tmp/frag" "x86_64=$tmp/ours.config=$tmp/debian.config"
status_is EXIT_OK "$st" "the unplanted copies pass"

finish
