#!/usr/bin/env bash
# tests/test-arch.sh — the architecture stays in its folder (payload/arch/<arch>/, as musl's
# arch/<arch>/):
#   * no file of payload/, lib/ or report/ outside payload/arch/ holds inline assembly
#     (asm, __asm__), an x86-only header (<cpuid.h>, <*intrin.h>, <sys/io.h>), a multiarch
#     triplet (x86_64-linux-gnu, ...) or an #if on an architecture's predefined macro;
#   * the folder the build selects (payload/arch/arch.mk: ARCH from the compiler's target)
#     exists with its arch.mk, and so does the kernel's kernel-config/arch/<arch>.config;
#   * the interface is one header, payload/arch/arch.h (no folder has an arch.h, no other
#     header declares arch_hypervisor_id()), and an architecture names only its own probes:
#     each row of payload/arch/generic/probes.h is defined (INSN(id, ...) or BENCH(id, ...)) in
#     at most one architecture folder;
#   * a new architecture is what docs/architecture.md's "Adding an architecture" says it must
#     provide, and nothing more: a stub made of exactly the files that section lists builds
#     the runner with `make ARCH=stub` from unchanged generic files, and its vmexit-cpuid and
#     clock-cntvct SKIP with the list's reasons (payload/arch/generic/probes.c); with no
#     driver of its own it lists every ring-0 probe of the drivers' lists once, each SKIPping
#     naming the architectures that have it (ring0-self_ipi: arm64 and x86-64);
#   * the ring-0 driver's generic files (kernel-config/driver/, outside driver/arch/) hold no
#     inline assembly, no architecture's kernel header (<asm/...>, <xen/...>,
#     <clocksource/...>) and no #if on an architecture (predefined macro or CONFIG_X86*,
#     CONFIG_ARM64, ...): the instructions are driver/arch/<arch>/'s;
#   * each driver/arch/<arch>/ probe list compiles in user space with its architecture's
#     compiler (x86-64: host gcc, and tests/ring0-abi.c with it; aarch64:
#     aarch64-linux-gnu-gcc -fsyntax-only; none: the empty list), and x86-64's probe numbers
#     are still the ABI's (cpuid 0 ... hlt 14);
# and each check fails on a planted violation in a copy of the tree.
# In: the tree (git ls-files), musl-gcc, make. Out: ok/FAIL lines, then finish's summary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
use_tmp

# generic_files ROOT: the files of payload/, lib/, report/ outside payload/arch/, one a line.
generic_files() {
	find "$1/payload" "$1/lib" "$1/report" -path "$1/payload/arch" -prune -o -type f -print |
		sort
}

# driver_files ROOT: the ring-0 driver's generic files (kernel-config/driver/, not arch/).
driver_files() {
	find "$1/kernel-config/driver" -maxdepth 1 -type f | sort
}

# grep_generic ROOT ERE [LISTER]: "file:line: text" of each line matching ERE in the files
# LISTER (default generic_files) names.
grep_generic() {
	local f
	local -a fs=()
	while read -r f; do fs+=("${f#"$1"/}"); done < <("${3:-generic_files}" "$1")
	# One grep over them all, in the lister's order (-H: each line named by its file).
	[ "${#fs[@]}" -eq 0 ] || (cd "$1" && grep -nIHE -e "$2" -- "${fs[@]}") || true
}

ASM_RE='(^|[^A-Za-z0-9_])(__asm__|__asm|asm)([^A-Za-z0-9_]|$)'
HDR_RE='^[[:space:]]*#[[:space:]]*include[[:space:]]*<(cpuid\.h|[a-z0-9]*intrin\.h|sys/io\.h|sys/perm\.h)>'
TRIPLET_RE='[a-z0-9_]+-(linux|kfreebsd|hurd)-(gnu|musl)[a-z0-9]*'
IFARCH_RE='^[[:space:]]*#[[:space:]]*(if|ifdef|ifndef|elif).*__(x86_64|amd64|i386|aarch64|arm|riscv|powerpc64|s390x)__'
# The driver's generic files: inline assembly, an architecture's kernel header, an #if on an
# architecture (as IFARCH_RE, or the kernel's CONFIG_ symbols of one).
KHDR_RE='^[[:space:]]*#[[:space:]]*include[[:space:]]*<(asm|xen|clocksource)/'
KIFARCH_RE='^[[:space:]]*#[[:space:]]*(if|ifdef|ifndef|elif).*(__(x86_64|amd64|i386|aarch64|arm|riscv)__|CONFIG_(X86|ARM64|ARM|XEN|HYPERV|KVM_GUEST|PARAVIRT))'

# arch_dirs ROOT: the payload folder and kernel fragment the build selects, or why not.
arch_dirs() {
	local dir arch
	# shellcheck disable=SC2016 # $(ARCH_DIR) is make's, not the shell's
	dir=$(make -s -C "$1/payload" O="$tmp/o" --eval 'print-arch-dir: ; @echo $(ARCH_DIR)' \
		print-arch-dir 2>&1) || { echo "make: $(tail -n 1 <<<"$dir")"; return; }
	arch=$(basename "$dir")
	[ -f "$1/payload/$dir/arch.mk" ] || echo "payload/$dir/arch.mk missing"
	[ -f "$1/kernel-config/arch/$arch.config" ] || echo "kernel-config/arch/$arch.config missing"
}

judge() { # judge ROOT LABEL: the six checks on one tree
	local got
	got=$(grep_generic "$1" "$ASM_RE|$KHDR_RE|$KIFARCH_RE" driver_files)
	none "$got" "$2: the driver's generic files hold no assembly, arch header or #if on an arch" \
		"$2: architecture-specific code in the driver's generic files"
	got=$(grep_generic "$1" "$ASM_RE")
	none "$got" "$2: no inline assembly outside payload/arch/" \
		"$2: inline assembly outside payload/arch/"
	got=$(grep_generic "$1" "$HDR_RE")
	none "$got" "$2: no x86-only header outside payload/arch/" \
		"$2: x86-only header outside payload/arch/"
	got=$(grep_generic "$1" "$TRIPLET_RE")
	none "$got" "$2: no multiarch triplet outside payload/arch/" \
		"$2: multiarch triplet outside payload/arch/"
	got=$(grep_generic "$1" "$IFARCH_RE")
	none "$got" "$2: no #if on an architecture outside payload/arch/" \
		"$2: #if on an architecture outside payload/arch/"
	got=$(arch_dirs "$1")
	none "$got" "$2: the selected architecture has its folder and kernel fragment" \
		"$2: the selected architecture is incomplete"
}

# The tree as git sees it (tracked, or new and not ignored), copied.
copy_tree() { tree_copy "$1" lib report payload kernel-config docs/architecture.md; }

# The tree itself, as a copy: what git would commit, without stray local files.
copy_tree "$tmp/tree"
judge "$tmp/tree" "tree"
if [ -n "$(generic_files "$tmp/tree" | head -n 1)" ]; then pass "the checks see the generic files"
else fail "no generic file found under payload/, lib/, report/"; fi

# The same checks must fail on planted violations, one per check.
copy_tree "$tmp/planted"
p=$tmp/planted
printf 'static inline void nop(void) { __asm__ volatile("nop"); }\n' >>"$p/payload/bench/pipe.c"
printf '#include <cpuid.h>\n' >>"$p/lib/stats.c"
printf 'static const char *lib = "/usr/lib/aarch64-linux-gnu";\n' >>"$p/report/model.c"
printf '#ifdef __x86_64__\n#endif\n' >>"$p/payload/out.c"
mv "$p/payload/arch/x86_64" "$p/payload/arch/gone"
printf 'static inline void ibp_cpuid(void) { asm("cpuid"); }\n' >>"$p/kernel-config/driver/isobench_probe.c"
planted_fails judge "$p" 6 "each check fails on its planted violation"
# The driver's other two rules, one planted file each (an arch header, an #if on an arch).
for v in '#include <asm/apic.h>' '#ifdef CONFIG_ARM64' '#if defined(__aarch64__)'; do
	copy_tree "$tmp/drv"
	printf '%s\n' "$v" >>"$tmp/drv/kernel-config/driver/ibp.h"
	got=$(grep_generic "$tmp/drv" "$ASM_RE|$KHDR_RE|$KIFARCH_RE" driver_files)
	if [ -n "$got" ]; then pass "planted in the driver's ibp.h, caught: $v"
	else fail "planted in the driver's ibp.h, not caught: $v"; fi
	rm -rf "$tmp/drv"
done

# Each architecture's probe list compiles with that architecture's compiler, in user space.
# abi_cc CC ARCHDIR [EXTRA]: compiles a file including the interface against ARCHDIR's list
# (-fsyntax-only); prints the compiler's first error, nothing when it compiles.
abi_cc() {
	printf '#include "isobench_probe.h"\nint probes = ISOBENCH_PROBE_COUNT;\n%s\n' "${3:-}" |
		"$1" -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I"$tmp/tree/kernel-config/driver" \
			-I"$2" -x c - 2>&1 | grep -m 1 'error' || true
}
d=$tmp/tree/kernel-config/driver/arch
x86abi='_Static_assert(ISOBENCH_PROBE_CPUID == 0 && ISOBENCH_PROBE_VMCALL == 1 && ISOBENCH_PROBE_EOI == 10 && ISOBENCH_PROBE_SELF_IPI == 11 && ISOBENCH_PROBE_HLT == 14 && ISOBENCH_PROBE_INL_KERNEL == 15 && ISOBENCH_PROBE_RD_X2APIC_VER == 16 && ISOBENCH_PROBE_COUNT == 17, "x86-64 probe numbers");'
none "$(abi_cc gcc "$d/x86_64" "$x86abi")" "x86-64's probe list compiles (host gcc), its 17 numbers unchanged (issue 36's two appended)" \
	"x86-64's probe list"
none "$(abi_cc gcc "$d/none")" "the empty list (no driver) compiles" "the empty probe list"
got=$(gcc -std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I"$d/x86_64" "$here/ring0-abi.c" 2>&1 | head -n 1 || true)	# its first error is the verdict, judged below
none "$got" "tests/ring0-abi.c compiles against x86-64's list (host gcc)" "tests/ring0-abi.c"
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	none "$(abi_cc aarch64-linux-gnu-gcc "$d/aarch64" \
		'_Static_assert(ISOBENCH_PROBE_HVC == 0 && ISOBENCH_PROBE_IPI == 2, "arm64 probe numbers");')" \
		"arm64's probe list compiles (aarch64-linux-gnu-gcc -fsyntax-only)" "arm64's probe list"
else skip "arm64's probe list: no aarch64-linux-gnu-gcc (ARCH=arm64 ./build.sh installs it)"; fi
# ring0-others.sh names a probe's owners by ARCH_NAME, "the architecture's name in words"
# (arch.mk): a name of two words ("ARM 64-bit", planted in a copy of payload/arch) is one owner,
# whole, on each of the rows the real names give (it was read as the row's first field: a row
# X(64-bit, HVC, hvc "...", "ARM") that does not compile, and arm64's self_ipi, ipi and
# ipi_halt listed again beside x86-64's own).
r0rows() { "$tmp/tree/payload/arch/ring0-others.sh" gcc "$d/x86_64" "$d" "$1" 2>&1 | grep '^[[:space:]]*X(' || true; }
cp -r "$tmp/tree/payload/arch" "$tmp/words-arch"
sed -i 's/^ARCH_NAME := .*/ARCH_NAME := ARM 64-bit/' "$tmp/words-arch/aarch64/arch.mk"
real=$(r0rows "$tmp/tree/payload/arch")
worded=$(r0rows "$tmp/words-arch")
if [ -n "$real" ] && [ "$worded" = "${real//\"arm64\"/\"ARM 64-bit\"}" ]; then
	pass "ring0-others.sh: an ARCH_NAME of two words names the owner whole ($(wc -l <<<"$worded") rows, as with arm64)"
else fail "ring0-others.sh with ARCH_NAME 'ARM 64-bit': '$(tr '\n\t' '; ' <<<"$worded")', want the rows of '$(tr '\n\t' '; ' <<<"$real")' naming it"; fi
# Planted: x86-64's numbering changed (a probe inserted before cpuid) is caught.
mkdir -p "$tmp/abi/x86_64"
sed 's/^\(#define ISOBENCH_PROBES(X) \\\)$/\1\n\tX(NEW, new, "planted") \\/' "$d/x86_64/isobench_probe_arch.h" \
	>"$tmp/abi/x86_64/isobench_probe_arch.h"
got=$(abi_cc gcc "$tmp/abi/x86_64" "$x86abi")
if [ -n "$got" ]; then pass "planted: a probe inserted before cpuid breaks x86-64's numbers ($got)"
else fail "planted: a probe inserted before cpuid went unnoticed"; fi
# The kernel fragment alone missing is caught too.
copy_tree "$tmp/nokernel"
rm "$tmp/nokernel/kernel-config/arch/x86_64.config"
got=$(arch_dirs "$tmp/nokernel")
if [ "$got" = "kernel-config/arch/x86_64.config missing" ]; then
	pass "a missing kernel fragment is caught ($got)"
else fail "a missing kernel fragment: got '$got'"; fi

# Every architecture folder has its kernel fragment (aarch64 beside x86_64, whichever the host).
# arch_pairs ROOT: "payload/arch/A without kernel-config/arch/A.config" lines.
arch_pairs() {
	local d
	for d in "$1"/payload/arch/*/arch.mk; do
		d=$(basename "$(dirname "$d")")
		[ -f "$1/kernel-config/arch/$d.config" ] || echo "payload/arch/$d without kernel-config/arch/$d.config"
	done
}
got=$(arch_pairs "$tmp/tree")
archs=$(find "$tmp/tree/payload/arch" -mindepth 2 -maxdepth 2 -name arch.mk -printf '%h\n' | xargs -n1 basename | sort | tr '\n' ' ')
none "$got" "every payload/arch folder (${archs% }) has its kernel fragment" \
	"an architecture folder lacks its kernel fragment"
copy_tree "$tmp/noarm"
rm "$tmp/noarm/kernel-config/arch/aarch64.config"
got=$(arch_pairs "$tmp/noarm")
if [ "$got" = "payload/arch/aarch64 without kernel-config/arch/aarch64.config" ]; then
	pass "planted: a missing arm64 fragment is caught ($got)"
else fail "planted: a missing arm64 fragment: got '$got'"; fi

# The interface is one header, and an architecture names only its own probes.
# interface_problems ROOT: one line per header other than payload/arch/arch.h declaring the
# interface, and per probe of generic/probes.h defined in more than one architecture folder.
interface_problems() {
	local a id n
	for a in "$1"/payload/arch/*/arch.h; do
		[ -e "$a" ] && echo "${a#"$1"/}: an architecture's own arch.h (the interface is payload/arch/arch.h)"
	done
	grep -rlE 'void arch_hypervisor_id\(char \*out\);' "$1/payload" "$1/lib" --include='*.h' |
		sed "s#^$1/##" | grep -vx 'payload/arch/arch.h' | sed 's/$/: declares the interface again/'
	sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\), ".*/\1/p' "$1/payload/arch/generic/probes.h" |
		while read -r id; do
			n=$(grep -lE "INSN\($id,|BENCH\($id,|bench_$id\b" "$1"/payload/arch/*/*.c 2>/dev/null |
				grep -v '/generic/' | xargs -r -n1 dirname | sort -u | wc -l) || true
			[ "$n" -le 1 ] || echo "$id: defined in $n architecture folders"
		done
}
got=$(interface_problems "$tmp/tree")
none "$got" "the interface is payload/arch/arch.h alone; each instruction probe is defined by one architecture" \
	"the interface or the probes are named twice"
n=$(sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\), ".*/\1/p' "$tmp/tree/payload/arch/generic/probes.h" | wc -l)
if [ "$n" -ge 12 ]; then pass "generic/probes.h lists the $n instruction probes"
else fail "generic/probes.h lists $n instruction probes, want >= 12"; fi
copy_tree "$tmp/twice"
printf 'INSN(clock_cntvct, 0, insn_setup, rdtsc_run);\n' >>"$tmp/twice/payload/arch/x86_64/insn.c"
printf '#ifndef X\nvoid arch_hypervisor_id(char *out);\n#endif\n' >"$tmp/twice/payload/arch/x86_64/arch.h"
got=$(interface_problems "$tmp/twice")
if [ "$(grep -c . <<<"$got")" -eq 3 ]; then
	pass "planted: x86-64 defining clock-cntvct and its own arch.h are caught ($(tr '\n' ';' <<<"$got"))"
else fail "planted: want 3 problems, got: $(tr '\n' ';' <<<"$got")"; fi

# A third architecture is what docs/architecture.md says it must provide, and nothing more: a
# stub made of exactly the files listed under "must provide" (the list items between that line
# and the one starting "Then", <arch> = stub). It has no ring-0 driver folder, so its runner gets
# the empty probe list (kernel-config/driver/arch/none).
# required_files ROOT: the paths the section lists, <arch> as stub, one a line.
required_files() {
	# shellcheck disable=SC2016 # the backticks are markdown's
	sed -n '/^## Adding an architecture/,$p' "$1/docs/architecture.md" |
		sed -n '/must provide:$/,/^Then /p' | grep '^- `' | sed 's/^- `\([^`]*\)`.*/\1/; s/<arch>/stub/g'
}
# add_stub ROOT: writes the files required_files names (arch.mk: no flags, the host
# compiler's machine; anything else empty).
add_stub() {
	local f
	required_files "$1" | while read -r f; do
		mkdir -p "$(dirname "$1/$f")"
		case $f in
		*/arch.mk) printf 'ARCH_TARGET_FLAGS :=\nARCH_CC_MACHINE := %s\n' "$(musl-gcc -dumpmachine | cut -d- -f1)" >"$1/$f" ;;
		*) : >"$1/$f" ;;
		esac
	done
}

got=$(required_files "$tmp/tree" | tr '\n' ' ')
if [ "$got" = "payload/arch/stub/arch.mk kernel-config/arch/stub.config " ]; then
	pass "docs/architecture.md: a new architecture must provide $got"
else fail "docs/architecture.md's \"must provide\" list reads: '$got'"; fi

# stub_builds ROOT: builds ROOT's runner for the stub into ROOT.out; prints why not (the first
# error line; nothing when it builds).
stub_builds() {
	make -s -C "$1/payload" O="$1.out" ARCH=stub >"$1.log" 2>&1 ||
		grep -m 1 -E 'error|undefined' "$1.log" || echo "make failed"
}

copy_tree "$tmp/stub"
add_stub "$tmp/stub"
got=$(stub_builds "$tmp/stub")
if [ -z "$got" ]; then
	pass "a stub of only the documented files builds the runner from unchanged generic files"
	"$tmp/stub.out/isobench" --suite quick --tests vmexit-cpuid,clock-cntvct --copies 1 >"$tmp/stub.run" 2>&1
	has "$tmp/stub.run" '^@isobench/1 [0-9]+ SKIP test=vmexit-cpuid .*reason=CPUID%20is%20an%20x86%20instruction%20\(arm64:%20trap-mrs-idreg\)' \
		"the stub's vmexit-cpuid SKIPs with the list's reason"
	has "$tmp/stub.run" '^@isobench/1 [0-9]+ SKIP test=clock-cntvct .*reason=MRS%20CNTVCT_EL0%20is%20an%20arm64%20instruction' \
		"the stub's clock-cntvct SKIPs with the list's reason"
	# No driver of its own: every architecture's ring-0 probes are listed, each once, and SKIP
	# naming the architectures whose drivers have them (payload/arch/ring0-others.sh).
	"$tmp/stub.out/isobench" --suite quick --tests ring0-self_ipi,ring0-hvc,ring0-cpuid --copies 1 >"$tmp/stub.r0" 2>&1 || true	# its log is checked
	has "$tmp/stub.r0" '^@isobench/1 [0-9]+ SKIP test=ring0-self_ipi .*reason=self_ipi%20is%20an%20arm64%20and%20x86-64%20ring-0%20probe ' \
		"the stub's ring0-self_ipi (on both drivers' lists) SKIPs naming both architectures"
	has "$tmp/stub.r0" '^@isobench/1 [0-9]+ SKIP test=ring0-hvc .*reason=hvc%20is%20an%20arm64%20ring-0%20probe ' \
		"the stub's ring0-hvc SKIPs naming arm64"
	has "$tmp/stub.r0" '^@isobench/1 [0-9]+ SKIP test=ring0-cpuid .*reason=cpuid%20is%20an%20x86-64%20ring-0%20probe ' \
		"the stub's ring0-cpuid SKIPs naming x86-64"
	n=$("$tmp/stub.out/isobench" --list | awk '$2 == "ring0" { print $1 }' | sort | uniq | wc -l)
	m=$(sed -n 's/^[[:space:]]*X([A-Z0-9_]*,[[:space:]]*\([a-z0-9_]*\),.*/\1/p' "$tmp/stub/kernel-config/driver/arch"/*/isobench_probe_arch.h | sort -u | wc -l)
	if [ "$n" -eq "$m" ] && [ "$("$tmp/stub.out/isobench" --list | awk '$2 == "ring0"' | wc -l)" -eq "$m" ]; then
		pass "the stub lists the $m ring-0 probes of the drivers' lists, each once"
	else fail "the stub lists $n distinct ring0 tests, want the lists' $m, each once"; fi
else
	fail "a stub architecture does not build: $(tr '\n' ' ' <<<"$got")"
fi
# Planted: a generic file that leans on something only x86-64's folder would define. The
# stub's tree again (cp -a: the same files and times; its build wrote only beside it) and its
# objects (seed_objs: the same ARCH=stub flags), so make compiles clock.c (and version.c) and links.
cp -a "$tmp/stub" "$tmp/stub2"
seed_objs "$tmp/stub.out" "$tmp/stub2.out"
printf 'int x86_has_rdtscp(void);\nint clock_has_rdtscp(void) { return x86_has_rdtscp(); }\n' \
	>>"$tmp/stub2/payload/bench/clock.c"
got=$(stub_builds "$tmp/stub2")
if [ -n "$got" ]; then
	echo "  (expected) planted: the stub does not build: $got"
	pass "the stub build fails when a generic file needs an x86-only function"
else fail "the stub built although clock.c calls x86_has_rdtscp()"; fi

finish
