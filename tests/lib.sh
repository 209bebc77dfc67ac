# tests/lib.sh — the one shell test library (source it; bash): every helper the test scripts
# share is defined here, once. Three verbs count every check:
#   pass WHAT    the check held                    -> "ok: WHAT"
#   fail WHAT    it did not                        -> "FAIL: WHAT"
#   skip WHAT    it could not run here, and why    -> "SKIP: WHAT"
# and finish() prints "N passed, M failed, K skipped" (the line tests/run and CI read; the
# skipped part may be absent in older suites) and returns non-zero when something failed.
# A skip is never a pass: tests/run adds skips up and prints them in its summary.
# The assertions below are built on the verbs; ok/bad are the older names of pass/fail.
# Every assertion can fail: an absence (hasnt, lacks, count_is ... 0) is looked for only in
# output that exists and holds something, since a program that never ran leaves none.
# Also here: die (lib/sh/die.sh's), use_tmp/at_exit/kill_at_exit (a temporary directory and
# what to undo at exit), sha256_of and clean_build (a file's hash, a clean build of HEAD),
# tree_copy/planted_fails (the lint suites' copy of the tree and their planted violations),
# seed_objs (out/'s runner objects for a build in a copy, so that it compiles only what changed),
# complete and ran (isobench-report's verdict on a log), start_peer/stop_peer (the net tests'
# peer), qboot/boot_table (one QEMU boot, judged), timing_done (tests/run's schedule), mklog (a
# synthetic log, sealed by tests/seal.py, the one place a test frames a record), chrome and
# rendered (a page in headless Chromium; its screenshot is not blank).
# tests/test-testlib.sh checks that each of them fails when it should.
#
# The preamble, one for every test script (tests/*.sh but this file): its header comment, then
#   set -euo pipefail
# A command that fails outside a check ends the script, and tests/run counts a suite that ends
# without its summary line as failed: a broken step (a build, a fixture, a copy) is never taken
# for a pass. The verbs and assertions here never trip it (they count a failure and go on), so
# every check still runs. A command whose failure is expected or judged says so where it runs:
# `cmd || st=$?` then status_is (st=0 before), `if cmd; then`, expect_status, or `|| true`
# with a comment when only its output is judged (a lister that exits 1 when it lists, a grep
# that may find nothing). tests/test-testlib.sh fails on a script that begins otherwise.
# shellcheck shell=bash disable=SC2154 # $tmp and $id (qboot) are the sourcing script's

pass=0 fail=0 skip=0
_lib_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# die MSG...: the script cannot go on: "SCRIPT: MSG" on stderr, exit 1 (lib/sh/die.sh, the one
# die() of every script; tests/run counts a script that ends without its summary as a failure).
# shellcheck source=../lib/sh/die.sh
. "$_lib_top/lib/sh/die.sh"

pass() { echo "ok: $*"; pass=$((pass + 1)); }
fail() { echo "FAIL: $*"; fail=$((fail + 1)); }
skip() { echo "SKIP: $*"; skip=$((skip + 1)); }
ok() { pass "$@"; }
bad() { fail "$@"; }

# ---- exit statuses, by name ---------------------------------------------------------------------
# The statuses a check wants are named, never numbered: EXIT_OK, EXIT_USAGE ... are lib/status.h's
# "#define EXIT_<NAME> <N>" lines (the one table of isobench, isobench-report and qemu/run),
# read here at source time by lib/sh/status.sh, as qemu/run reads them. EXIT_OK (0) is also
# any other program's success. Statuses of programs outside that table:
#   CMD_FAILED   1        a script or tool that failed (a build script's die(), tests/deps.py)
#   MAKE_FAILED  2        make, when a recipe failed
#   SIG<NAME>    128 + N  killed by signal NAME (SIGTERM, SIGINT ...), as the shell reports it
# _lib_status NAME prints NAME's number; status 1 (and nothing) when NAME is none of these (a
# bare number is not a name: tests/test-testlib.sh also finds one in any test script).
# shellcheck source=../lib/sh/status.sh
. "$_lib_top/lib/sh/status.sh"
while read -r _lib_n _lib_v; do
	printf -v "EXIT_$_lib_n" '%s' "$_lib_v"
done < <(exit_statuses)
if [ -z "${EXIT_OK:-}" ] || [ -z "${EXIT_USAGE:-}" ]; then
	echo "tests/lib.sh: cannot read the exit statuses from $_lib_top/lib/status.h" >&2
	exit 1
fi
# shellcheck disable=SC2034 # read by name, in _lib_status
CMD_FAILED=1 MAKE_FAILED=2
_lib_status() {
	local n
	case $1 in
	EXIT_* | CMD_FAILED | MAKE_FAILED)
		[[ $1 =~ ^[A-Z_]+$ ]] && [ -n "${!1:-}" ] && echo "${!1}" ;;
	SIG*) n=$(kill -l "${1#SIG}" 2>/dev/null) && [[ $n =~ ^[0-9]+$ ]] && echo $((128 + n)) ;;
	*) return 1 ;;
	esac
}
# _lib_want NAME DESCRIPTION: sets _lib_w to NAME's number; else counts a failure, returns 1.
_lib_want() {
	_lib_w=$(_lib_status "$1") && return 0
	fail "$2: '$1' is not a status name (EXIT_* of lib/status.h, CMD_FAILED, MAKE_FAILED, SIG*)"
	return 1
}

# check DESCRIPTION COMMAND...: the command must succeed (its output is discarded).
check() {
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then pass "$what"; else fail "$what"; fi
}

# status_is WANT GOT DESCRIPTION: the status GOT (a number) is the one named WANT (EXIT_USAGE ...).
status_is() {
	_lib_want "$1" "$3" || return 0
	if [ "$2" -eq "$_lib_w" ] 2>/dev/null; then pass "$3 (status $2)"
	else fail "$3: want status $1 ($_lib_w), got $2"; fi
}

# expect_status WANT DESCRIPTION -- COMMAND...: run COMMAND (stdout and stderr into
# $tmp/stdout and $tmp/stderr; $tmp must exist) and check its exit status is the one named WANT.
expect_status() {
	local want=$1 what=$2 got=0
	shift 3
	_lib_want "$want" "$what" || return 0
	"$@" >"$tmp/stdout" 2>"$tmp/stderr" || got=$?
	if [ "$got" -eq "$_lib_w" ]; then
		pass "$what (status $got)"
	else
		fail "$what: want status $want ($_lib_w), got $got; stderr: $(head -n 3 "$tmp/stderr" | tr '\n' '|')"
	fi
}

# has FILE REGEX DESCRIPTION: some line of FILE matches the extended regex.
has() {
	if grep -Eq -- "$2" "$1"; then pass "$3"; else fail "$3: no line matches '$2' in $1"; fi
}

# _lib_look FILE DESCRIPTION: 0 when FILE holds something to look in; else counts a failure
# (an absence in a missing or empty file proves nothing) and returns 1.
_lib_look() {
	[ -s "$1" ] && [ -r "$1" ] && return 0
	fail "$2: $1 is missing or empty, so nothing can be absent from it"
	return 1
}

# _lib_absent FILE DESCRIPTION WHAT GREP-OPTION: pass when FILE (non-empty) has no match.
_lib_absent() {
	local st=0
	_lib_look "$1" "$2" || return 0
	grep -q "$4" -- "$3" "$1" || st=$?
	case $st in
	0) fail "$2: '$3' found in $1" ;;
	1) pass "$2" ;;
	*) fail "$2: grep could not read $1 (status $st)" ;;
	esac
}

# hasnt FILE REGEX DESCRIPTION: no line of FILE matches, and FILE is not empty.
hasnt() { _lib_absent "$1" "$3" "$2" -E; }

# contains FILE STRING [DESCRIPTION]: a fixed-string match; lacks: none (FILE not empty).
contains() {
	local what=${3:-$1 holds \"$2\"}
	if grep -qF -- "$2" "$1"; then pass "$what"; else fail "$what: \"$2\" not in $1"; fi
}
lacks() { _lib_absent "$1" "${3:-$1 lacks \"$2\"}" "$2" -F; }

# none GOT OK BAD: a check that finds nothing passes ("OK"); found lines fail it ("BAD: "
#   with the first five of them, joined by " | ").
none() {
	if [ -z "$1" ]; then pass "$2"
	else fail "$3: $(head -n 5 <<<"$1" | sed ':a;N;$!ba;s/\n/ | /g')"; fi
}

# none_listed OK BAD -- LISTER...: none for a lister (a program that prints one line per finding,
#   e.g. tests/names.py): passes "OK" only when LISTER exits 0 and prints nothing; its lines fail
#   it ("BAD: " as none does); and so does a lister that prints nothing but exits non-zero (a
#   crash, a usage error, a parse that found nothing to check: names.py's status 2), "BAD:
#   LISTER could not list (status N): its stderr" -- `none "$(LISTER)"` took that for a pass.
none_listed() {
	local ok=$1 bad=$2 got st=0
	shift 3
	got=$("$@" 2>"$tmp/none_listed.err") || st=$?
	if [ -n "$got" ] || [ "$st" -eq 0 ]; then none "$got" "$ok" "$bad"
	else fail "$bad: $1 could not list (status $st): $(head -c 300 "$tmp/none_listed.err" | tr '\n' '|')"; fi
}

# count_is FILE REGEX N DESCRIPTION: exactly N lines match (N = 0 needs a non-empty FILE).
count_is() {
	local n st=0
	n=$(grep -Ec -- "$2" "$1" 2>/dev/null) || st=$?
	if [ "$st" -gt 1 ]; then fail "$4: cannot read $1"; return 0; fi
	if [ "$3" -eq 0 ]; then _lib_look "$1" "$4" || return 0; fi
	if [ "$n" -eq "$3" ]; then pass "$4 ($n)"; else fail "$4: want $3 lines matching '$2', got $n"; fi
}

# report_tool: the isobench-report that judges logs: $ISOBENCH_REPORT, else OUT's (default
# the repository's out/).
report_tool() { echo "${ISOBENCH_REPORT:-${OUT:-$_lib_top/out}/isobench-report}"; }

# complete LOG DESCRIPTION [WANT]: `isobench-report --check LOG` exits the status named WANT
# (default EXIT_OK: a complete run without FAIL or ERROR records; EXIT_FAILS: complete, with
# some; EXIT_INCOMPLETE: no complete run). Its verdict stays in LOG.check.
complete() {
	local want=${3:-EXIT_OK} rc=0
	_lib_want "$want" "$2" || return 0
	"$(report_tool)" --check "$1" >"$1.check" 2>&1 || rc=$?
	if [ "$rc" -eq "$_lib_w" ]; then pass "$2"
	else fail "$2: isobench-report --check status $rc, want $want ($_lib_w): $(head -c 300 "$1.check")"; fi
}

# ran WANT GOT LOG DESCRIPTION: a run of the runner exited the status named WANT (its status
# GOT) and wrote LOG, a complete run that isobench-report --check gives the same status
# (EXIT_OK: no FAIL or ERROR records, EXIT_FAILS: some). The status alone is not enough:
# /bin/false exits 1 too.
ran() {
	local rc=0
	_lib_want "$1" "$4" || return 0
	"$(report_tool)" --check "$3" >"$3.check" 2>&1 || rc=$?
	if [ "$2" -eq "$_lib_w" ] 2>/dev/null && [ "$rc" -eq "$_lib_w" ]; then pass "$4 (status $2, a complete run)"
	else fail "$4: status $2, isobench-report --check $rc (want $1, $_lib_w, for both): $(head -c 200 "$3.check")"; fi
}

# ---- a temporary directory, and what to undo when the script exits --------------------------
# use_tmp: $tmp becomes a new directory (mktemp -d), removed when the script exits.
# at_exit COMMAND...: run COMMAND (the words joined, eval'd) when the script exits, the last
#   registered first, before $tmp is removed; it cannot change the script's exit status.
# kill_at_exit VAR: at exit, kill the processes whose ids the variable (or array) VAR holds
#   then (an empty entry is skipped: clear VAR once the process is waited for).
_lib_exit=()
_lib_tmp=
_lib_on_exit() {
	local rc=$? c
	set +e
	[ -z "${boot_pid:-}" ] || kill "$boot_pid" 2>/dev/null
	for c in ${_lib_exit[@]+"${_lib_exit[@]}"}; do eval "$c"; done
	[ -z "$_lib_tmp" ] || rm -rf "$_lib_tmp"
	exit "$rc"
}
at_exit() {
	_lib_exit=("$*" ${_lib_exit[@]+"${_lib_exit[@]}"})
	trap _lib_on_exit EXIT
}
_lib_kill() {
	local -n _lib_ids=$1
	local p
	for p in ${_lib_ids[@]+"${_lib_ids[@]}"}; do [ -z "$p" ] || kill "$p" 2>/dev/null; done
}
kill_at_exit() { at_exit "_lib_kill $1"; }
use_tmp() {
	tmp=$(mktemp -d) || die "cannot make a temporary directory"
	_lib_tmp=$tmp
	trap _lib_on_exit EXIT
}

# ---- files and builds ---------------------------------------------------------------------------
# sha256_of FILE: FILE's SHA-256, 64 hex digits (nothing, status 1, when it cannot be read).
sha256_of() { local h; h=$(sha256sum <"$1") || return 1; echo "${h:0:64}"; }
# clean_build DIR [VAR=VALUE...]: a clean clone of this checkout's HEAD into DIR (uncommitted
#   changes are not in it), then `./build.sh` there with the VAR=VALUE... in its environment
#   (ARCH=arm64, ISOBENCH_CACHE=...); its output in DIR.log; status: the clone's or the build's.
clean_build() {
	local dir=$1
	shift
	git clone -q "$_lib_top" "$dir" || return 1
	(cd "$dir" && env "$@" ./build.sh) >"$dir.log" 2>&1
}

# ---- lint suites: checks on a copy of the tree, and on planted violations -----------------------
# tree_copy DEST PATH...: the checkout's files under PATH... as git sees them (tracked, or new
#   and not ignored) copied to DEST, so a check can run on a tree with a violation planted.
tree_copy() {
	local dest=$1
	shift
	mkdir -p "$dest"
	(cd "$_lib_top" && git ls-files -co --exclude-standard "$@" | cpio -pdm --quiet "$dest")
}

# seed_objs FROM TO: the runner's objects of the build in FROM (a payload O= folder, as out/:
#   obj/, obj-lib-musl/, obj-proc/) copied into TO with their times, each dependency file (.d)
#   retargeted from FROM to TO, so that make with O=TO, in this checkout or in a tree_copy of it
#   (which keeps the files' times), recompiles only what is newer than those objects (a planted
#   change and whatever includes it; version.o always) and links: the same decisions as an
#   incremental make in FROM. Nothing when FROM holds no built runner (make then builds all).
#   Only for a build with FROM's compiler and flags (not ARCH=stub, not a cross build).
seed_objs() {
	local from=$1 to=$2 d re
	[ -x "$from/isobench" ] && [ -d "$from/obj" ] || return 0
	re=$(printf '%s/' "$from" | sed 's/[][\\.*^$|]/\\&/g')
	mkdir -p "$to" || return 1
	for d in obj obj-lib-musl obj-proc; do
		[ -d "$from/$d" ] || continue
		cp -a "$from/$d" "$to/" || return 1
		find "$to/$d" -name '*.d' -exec sed -i "s|$re|$to/|g" {} + || return 1
	done
}

# planted_fails JUDGE ROOT WANT DESC: run `JUDGE ROOT planted` (a function of the script that
#   reports each check with pass/fail, labelled by its second argument) in a subshell, so its
#   FAILs are not the script's; show them as "(expected)" lines; pass DESC when exactly WANT
#   checks failed. The FAIL lines stay in $tmp/planted.out for further greps.
planted_fails() {
	local judge=$1 root=$2 want=$3 what=$4 n
	("$judge" "$root" planted) >"$tmp/planted.out"
	sed -n "s/^FAIL: /  (expected) /p" "$tmp/planted.out"
	n=$(grep -c '^FAIL: planted' "$tmp/planted.out") || true	# none: "0", status 1
	if [ "$n" -eq "$want" ]; then pass "$what ($want checks fail)"
	else fail "$what: want $want FAIL lines, got $n: $(grep -v '^FAIL' "$tmp/planted.out" | tr '\n' '|')"; fi
}

# ---- the ring0 group (tests/test-ring0.sh, tests/test-arm64.sh) ---------------------------
# ring0_problems LOG TEST...: one line per problem in LOG: a test with neither a RESULT of
# value > 0 that carries its null batch's figure (null_ns_x100) and whose measured SAMPLEs all
# carry cycles_x100 > 0, op_ns_x100 > 0 and null_ns_x100, nor a SKIP with a reason; and every
# FAIL record.
ring0_problems() {
	local log=$1 t
	shift
	for t in "$@"; do
		if grep -aqE "^@isobench/1 [0-9]+ RESULT test=$t copies=1 .* value=0*[1-9]|^@isobench/1 [0-9]+ RESULT test=$t copies=1 .* value=0*\.[0-9]*[1-9]" "$log"; then
			grep -aqE "^@isobench/1 [0-9]+ RESULT test=$t copies=1 .* null_ns_x100=[0-9]+ " "$log" ||
				echo "$t: its RESULT lacks null_ns_x100 (the null batch's figure)"
			awk -v t="$t" '$3 == "SAMPLE" && $4 == "test=" t && !/ warmup=1 / {
				n++
				if (!/ cycles_x100=[1-9][0-9]* / || !/ op_ns_x100=[1-9][0-9]* / ||
				    !/ null_ns_x100=[0-9]+ /) bad++
			} END {
				if (!n) print t ": a RESULT but no measured SAMPLE"
				else if (bad) print t ": " bad " of " n " samples lack cycles_x100 > 0, op_ns_x100 > 0 or null_ns_x100"
			}' "$log"
		elif ! grep -aqE "^@isobench/1 [0-9]+ SKIP test=$t copies=1 reason=[^ ]+ " "$log"; then
			echo "$t: neither a RESULT with value > 0 nor a SKIP with a reason"
		fi
	done
	grep -a '^@isobench/1 [0-9]* FAIL ' "$log" | cut -c1-200 | sed 's/^/FAIL record: /'
}

# ring0_init_boot NAME MIN: tests/NAME.c (ring0-abi, ring0-break: checks of the ring-0 driver,
#   each line "NAME: ok ..." or "NAME: FAIL ...", then "NAME: done N failed") built static with
#   musl against x86-64's probe list, booted as /init of a throw-away initramfs on OUT's
#   bzImage (TCG, 2 CPUs, 150 s at most); checks it powered off, every check passed, at least
#   MIN passed and the kernel logged no WARNING or BUG; prints its lines. Needs $tmp and $out.
ring0_init_boot() {
	local name=$1 min=$2 log=$tmp/$1.log n st
	if musl-gcc -static -O2 -Wall -Wextra -Werror -I"$_lib_top/kernel-config/driver/arch/x86_64" \
		-o "$tmp/$name" "$_lib_top/tests/$name.c" 2>"$tmp/$name.cc" &&
		"$_lib_top/initramfs/build.sh" "$tmp/$name.cpio.gz" "$tmp/$name" >"$tmp/$name.mk" 2>&1; then
		pass "built tests/$name.c into an initramfs"
		st=0	# a boot that does not power off is judged below, not the end of the script
		timeout -k 5 150 qemu-system-x86_64 -nodefaults -accel tcg -cpu max -M pc -m 256 -smp 2 \
			-display none -no-reboot -serial "file:$log" -kernel "$out/bzImage" \
			-initrd "$tmp/$name.cpio.gz" -append "console=ttyS0 panic=-1" </dev/null \
			>"$tmp/$name.qemu" 2>&1 || st=$?
		status_is EXIT_OK "$st" "the $name boot powered off"
		has "$log" "^$name: done 0 failed" "$name: every check passed"
		n=$(grep -ac "^$name: ok " "$log" || true)	# none: "0" (status 1), judged below
		if [ "$n" -ge "$min" ]; then pass "$name: $n checks ok"; else fail "$name: only $n checks ok"; fi
		hasnt "$log" "^$name: FAIL" "$name: no check failed"
		hasnt "$log" '(WARNING|BUG): ' "$name: the kernel logged no WARNING or BUG"
		grep -a "^$name: " "$log" | cut -c1-160 | sed 's/^/  /'
	else
		fail "cannot build the $name initramfs: $(cat "$tmp/$name.cc" "$tmp/$name.mk" | tail -n 2 | tr '\n' '|')"
	fi
}

# ---- the net group's peer (tests/test-net.sh, test-net-break.sh) ------------------------------
# start_peer NAME [ARGS...]: `isobench --serve --port 0 ARGS` in the background (the runner is
#   $bin, else OUT's isobench; stdout $tmp/NAME.peer, stderr $tmp/NAME.peer.err); sets peer_pid
#   and peer_port, the port of its serve.port record ("" when none came within 5 s). The
#   caller registers `kill_at_exit peer_pid`; stop_peer kills and reaps it, clearing peer_pid.
peer_pid=
peer_port=
start_peer() {
	local name=$1 i
	shift
	: >"$tmp/$name.peer"
	"${bin:-${OUT:-$_lib_top/out}/isobench}" --serve --port 0 "$@" >"$tmp/$name.peer" \
		2>"$tmp/$name.peer.err" &
	peer_pid=$!
	peer_port=
	for ((i = 0; i < 50; i++)); do
		peer_port=$(sed -n 's/.* INFO .*serve\.port=\([0-9]*\).*/\1/p' "$tmp/$name.peer" || true)
		[ -z "$peer_port" ] || return 0
		sleep 0.1
	done
}
stop_peer() { [ -z "$peer_pid" ] || { kill "$peer_pid" 2>/dev/null; wait "$peer_pid" 2>/dev/null || true; peer_pid=; }; }

# ---- the clouds' drivers in a built kernel (tests/test-disks.sh, tests/test-arm64.sh) ----------
# cloud_drivers ARCH: the kernel symbols the clouds' instances need built in (=y) on ARCH
#   (x86_64, aarch64; the first field of `gcc -dumpmachine`), one a line. Source: issue 32
#   and docs/clouds.md's table of disks and NICs: AWS Nitro (ENA, NVMe; ixgbevf on older
#   types), Google (virtio-scsi, virtio-net, gVNIC), Azure (storvsc, netvsc, and its VFs: MANA
#   behind the Hyper-V PCI front end, mlx4_en, mlx5 with Ethernet; a Gen 2 VM's screen and
#   keyboard), ESXi (VMXNET3; PVSCSI on x86 only: it depends on X86), the PCI UARTs some
#   clouds' consoles are, and on x86 the PIIX IDE of a Gen 1 or legacy BIOS machine. The
#   kernel's fragments (kernel-config/) request them; this list is what a test holds the built
#   kernel to, so a symbol dropped from a fragment fails the test, not only the build's check.
cloud_drivers() {
	printf 'CONFIG_%s=y\n' ENA_ETHERNET GVE MICROSOFT_MANA PCI_HYPERV PCI_MSI MLX5_CORE \
		MLX5_CORE_EN MLX4_EN IXGBEVF VIRTIO_NET HYPERV_NET VMXNET3 BLK_DEV_NVME SCSI_VIRTIO \
		HYPERV_STORAGE SERIAL_8250_PCI FB_HYPERV HYPERV_KEYBOARD
	case $1 in x86_64) printf 'CONFIG_%s=y\n' ATA_PIIX VMWARE_PVSCSI ;; esac
}

# kconfig_has CONFIG WHAT SYM=VAL...: pass WHAT when each SYM=VAL is a line of CONFIG (a
#   kernel's .config); else fail, naming the lines it lacks (all of them when CONFIG is
#   missing or empty).
kconfig_has() {
	local cfg=$1 what=$2 miss='' l
	shift 2
	[ -s "$cfg" ] || { fail "$what: $cfg is missing or empty"; return 0; }
	for l in "$@"; do grep -qxF -- "$l" "$cfg" || miss="$miss $l"; done
	if [ -z "$miss" ]; then pass "$what ($# symbols)"; else fail "$what: $cfg lacks$miss"; fi
}

# ---- one QEMU boot, judged by isobench-report (tests/test-netboot.sh, test-disks.sh, test-iso.sh:
# QEMU itself, for firmware paths and media qemu/run does not offer; test-boot-matrix.sh,
# arm64-matrix.sh: through qemu/run) -------------------------------------------------------------
# Paths: OVMF firmware (Debian package ovmf).
OVMF_CODE=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}
OVMF_VARS=${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}

_lib_usec() { local t=$EPOCHREALTIME; echo "${t//[!0-9]/}"; }
_lib_secs() { printf '%d.%02d' $(($1 / 1000000)) $(($1 % 1000000 / 10000)); }

# qboot NAME FIRMWARE LOG TIMEOUT ARGS...: one boot, judged. FIRMWARE says how it boots:
#   bios|uefi  qemu-system-x86_64 itself under TCG (2 vCPUs, 512 MiB, serial to LOG,
#              -no-reboot, that firmware; machine pc unless ARGS name one with -M) plus ARGS,
#              QEMU's own arguments (firmware paths and media qemu/run does not offer); it waits
#              at most TIMEOUT s for QEMU to exit;
#   qemu/run   qemu/run --out $OUT --log LOG --timeout TIMEOUT ARGS (its arguments: --arch,
#              --accel, --iso, --direct, --machine ...; TIMEOUT "-": qemu/run's default by
#              suite); its stdout and stderr in $tmp/NAME.out and $tmp/NAME.err.
# Then assert: the boot ended by itself (QEMU's status 0; qemu/run's EXIT_OK), `isobench-report
# --check LOG` is 0, the kernel powered off, the log carries image.identity=$id. Appends a row
# "NAME RESULT T1 T2" to the array boot_rows, host wall clock from QEMU's start: bios|uefi T1 is
# the END record as `isobench-report --follow` sees it, T2 QEMU's exit; qemu/run: T1 the first
# BEGIN and T2 QEMU's run, as qemu/run reports them (boot_col1 names T1 for boot_table).
# Needs $id and $tmp; a boot still running when the script exits is killed.
boot_rows=()
boot_pid=
boot_col1='END (s)'
qboot() {
	local name=$1 fw=$2 log=$3 tmo=$4 t_end='' t_exit st=0 rst=0 verdict=ok rep
	shift 4
	rep=$(report_tool)
	if [ "$fw" = qemu/run ]; then
		_lib_qemu_run "$name" "$log" "$tmo" "$@"
	else
		_lib_qemu_tcg "$name" "$fw" "$log" "$tmo" "$@"
	fi
	"$rep" --check "$log" >"$tmp/$name.check" 2>&1 || rst=$?
	if [ "$st" -ne 0 ]; then
		if [ "$fw" = qemu/run ]; then
			fail "$name: qemu/run status $st: $(grep 'qemu/run: ' "$tmp/$name.err" | grep -v 'first BEGIN\|boot, tcg\|note:' | tail -n 1)"
		else
			fail "$name: QEMU status $st (124: no power-off within ${tmo} s): $(head -c 300 "$tmp/$name.qemu")"
		fi
		verdict=FAIL
	elif [ "$rst" -ne 0 ]; then
		fail "$name: isobench-report --check status $rst: $(tail -n 1 "$tmp/$name.check")"
		verdict=FAIL
	elif ! grep -aq 'reboot: Power down' "$log"; then
		fail "$name: no 'reboot: Power down' in $log (QEMU ended another way)"
		verdict=FAIL
	elif ! grep -aqF "image.identity=$id" "$log"; then
		fail "$name: the log does not carry image.identity=$id"
		verdict=FAIL
	else
		pass "$name: END, valid log, powered off"
	fi
	boot_rows+=("$(printf '%-22s %-5s %9s %9s' "$name" "$verdict" "$t_end" "$t_exit")")
}
# _lib_qemu_tcg NAME FIRMWARE LOG TIMEOUT QEMU-ARGS (qboot's bios|uefi): sets qboot's st, t_end
# and t_exit (seconds, "-" for no END).
_lib_qemu_tcg() {
	local name=$1 fw=$2 log=$3 tmo=$4 fwopts=() machine=(-M pc) a line t0 te=''
	shift 4
	for a in "$@"; do case $a in -M | -machine) machine=() ;; esac; done
	if [ "$fw" = uefi ]; then
		cp "$OVMF_VARS" "$tmp/$name.vars.fd"
		fwopts=(-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE"
			-drive "if=pflash,format=raw,unit=1,file=$tmp/$name.vars.fd")
	fi
	: >"$log"
	t0=$(_lib_usec)
	timeout -k 5 "$tmo" qemu-system-x86_64 -nodefaults -accel tcg -cpu max "${machine[@]}" -m 512 \
		-smp 2 -vga std -display none -no-reboot -serial "file:$log" "${fwopts[@]}" "$@" \
		</dev/null >"$tmp/$name.qemu" 2>&1 &
	boot_pid=$!
	# The report's own reader follows the log (verified records only, as qemu/run does).
	while IFS= read -r line; do
		case $line in END\ *) [ -n "$te" ] || te=$(_lib_usec) ;; esac
	done < <("$rep" --follow "$log" --pid "$boot_pid" 2>/dev/null)
	wait "$boot_pid" || st=$?
	boot_pid=
	t_exit=$(_lib_secs $(($(_lib_usec) - t0)))
	if [ -n "$te" ]; then t_end=$(_lib_secs $((te - t0))); else t_end=-; fi
	boot_col1='END (s)'
}
# _lib_qemu_run NAME LOG TIMEOUT QEMU/RUN-ARGS (qboot's qemu/run): sets qboot's st, t_end (the
# first BEGIN) and t_exit (QEMU's run), "-" where qemu/run did not say.
_lib_qemu_run() {
	local name=$1 log=$2 tmo=$3 t
	shift 3
	[ "$tmo" = - ] || set -- --timeout "$tmo" "$@"
	"$_lib_top/qemu/run" --out "${OUT:-$_lib_top/out}" --log "$log" "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null &
	boot_pid=$!
	wait "$boot_pid" || st=$?
	boot_pid=
	t=$(grep -m1 -o 'first BEGIN after [0-9.]* s; QEMU ran [0-9.]* s' "$tmp/$name.err" || true)
	t_end=$(awk '{ print $4 }' <<<"$t") t_exit=$(awk '{ print $8 }' <<<"$t")
	[ -n "$t_exit" ] || t_exit=$(grep -m1 -o 'QEMU ran [0-9.]* s' "$tmp/$name.err" | awk '{ print $3 }' || true)
	t_end=${t_end:--} t_exit=${t_exit:--}
	boot_col1='BEGIN (s)'
}

# boot_table WHAT: the rows, with a header and the conditions (WHAT: the run the guests made).
boot_table() {
	echo
	printf '%-22s %-5s %9s %9s\n' boot result "$boot_col1" "exit (s)"
	printf '%s\n' "${boot_rows[@]}"
	echo "(TCG, host wall clock from QEMU's start; $1; the host is shared)"
}

# ---- tests/run's schedule ------------------------------------------------------------------------
# timing_done: this suite's checks that judge this host's timing are over. tests/run runs a
# suite with such checks alone (nothing beside it); from this call on it may start another
# suite beside this one and resume its background build. Outside tests/run: nothing.
timing_done() {
	[ -n "${ISOBENCH_TIMING_DONE:-}" ] || return 0
	: >"$ISOBENCH_TIMING_DONE"
	kill -USR1 "${ISOBENCH_RUN_PID:-0}" 2>/dev/null || true
}

# ---- synthetic logs -------------------------------------------------------------------------------
# mklog FILE [ARG...] <<'EOF' ... EOF: FILE becomes a synthetic log. The Python program on stdin
# runs with tests/ on its import path (tests/seal.py: sample(), result(), counts() ...) and
# sys.argv[1:] = FILE ARG...; it prints record bodies ("BEGIN run=...", "TEST test=..."), one a
# line, a blank line before each further run (whose records count from 1 again, as each run of
# a --repeat log does); tests/seal.py seals them, the runner's framing, into FILE. Status: the
# program's, or the sealer's (non-zero: FILE incomplete).
mklog() {
	local f=$1
	PYTHONPATH=$_lib_top/tests python3 - "$@" | python3 "$_lib_top/tests/seal.py" >"$f"
}

# ---- a page or chart rendered by a real browser ---------------------------------------------------
# chrome ARG...: headless Chromium (chromium, else chromium-browser) with its profile in $tmp
# and nothing of its own on the network, at most 120 s; its stderr dropped. Status 127 when
# neither is installed (have_chromium: is one?).
have_chromium() { command -v chromium >/dev/null || command -v chromium-browser >/dev/null; }
chrome() {
	local b
	b=$(command -v chromium || command -v chromium-browser) || return 127
	timeout 120 "$b" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$tmp/chromium-profile" "$@" 2>/dev/null
}
# rendered PNG WHAT: Chromium's screenshot PNG shows a rendered picture, not a blank or black
# page: at least 20 colours (a blank page has 1; a chart's bars, lines, text and grid dozens)
# and between 0.2 % and 40 % dark pixels (tests/png-stats.py's "WxH COLOURS DARKPCT"; a missing
# or unreadable PNG counts as 0 colours). Passes "WHAT renders in Chromium (STATS)", else fails
# "WHAT: the screenshot looks blank (STATS)".
rendered() {
	local stats _ colours dark
	stats=$(python3 "$_lib_top/tests/png-stats.py" "$1" 2>/dev/null || echo "0x0 0 0")
	read -r _ colours dark <<<"$stats"
	if [[ $colours -ge 20 ]] && awk -v d="$dark" 'BEGIN { exit !(d > 0.2 && d < 40) }'; then
		pass "$2 renders in Chromium ($stats)"
	else
		fail "$2: the screenshot looks blank ($stats)"
	fi
}

finish() {
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
}
