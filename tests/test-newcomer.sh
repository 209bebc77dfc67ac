#!/usr/bin/env bash
# tests/test-newcomer.sh — what a new user types from the README alone, and what README
# promises back: for each input, the exit status of docs/exit-status.md's table and one
# clear line on stderr. Each check here failed before the fix that came with it:
#   * list parameters (--copies, --tests, --console): an empty item ("1,,2", "1,", ",1") is a
#     usage error, never read as a shorter list;
#   * --console names only consoles (ttyS0-3, hvc0-7, tty0): PID 1 opens a named device
#     read-write and writes records to it, so "sda" would write to a disk; every one of them
#     together fits; many unknown test names are listed whole, then "and N more";
#   * --tmpdir is resolved (a relative one broke shell1; "DIR" + 300 slashes was cut back to DIR,
#     which the run then removed), and refused when its paths cannot work: white space or ':'
#     (shell1 FAILed, or with ':' counted loops that did nothing: 9x its figure), too long;
#   * many copies (600): a SAMPLE's per-copy lists are whole or left out, with dropped_fields;
#   * --list, --help, --version with stdout full or closed: status 2, like a run's records;
#   * the build: an empty or unknown ARCH is one line naming the supported ones, a supported
#     one without its compiler one line naming the compiler it needs;
#   * isobench-report: an unknown option or no LOG is one line (not getopt's and the whole
#     usage); a DIR beside other LOGs or with --check/--boot is a usage error, not a log that
#     "cannot be read" (3); an empty label in --label is refused; "-" reads standard input;
#   * qemu/run --mem 32M: the guest resets before the kernel prints anything; qemu/run says so.
#
# In:  $OUT/isobench, $OUT/isobench-report (OUT defaults to the repository's out/);
#      qemu/run, QEMU and $OUT/bzImage for two short TCG boots (skipped without them).
# Out: one line per assertion, then "N passed, M failed, K skipped". Exit 1 on any failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
bin=$out/isobench
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp

# usage_line WHAT REGEX -- COMMAND...: COMMAND exits 2 (usage error) with exactly one line on
# stderr, matching REGEX.
usage_line() {
	local what=$1 re=$2
	shift 3
	expect_status EXIT_USAGE "$what" -- "$@"
	count_is "$tmp/stderr" . 1 "$what: one line on stderr"
	has "$tmp/stderr" "$re" "$what: the line says why"
}

# to_full COMMAND...: COMMAND with stdout on a full device; to_closed: with stdout closed.
to_full() { "$@" >/dev/full; }
to_closed() { "$@" >&-; }

# ---- the host CLI: list parameters ----------------------------------------------------------
if [ -x "$bin" ]; then
	for v in 1,,2 "1," ,1 N,,N; do
		usage_line "--copies $v" "^isobench: --copies $v: item [12] of the list is empty$" -- \
			"$bin" --check-params --copies "$v"
	done
	for v in syscall,,getpid "syscall," ,syscall; do
		usage_line "--tests $v" "^isobench: --tests $v: item [12] of the list is empty$" -- \
			"$bin" --check-params --tests "$v"
	done
	usage_line "--param copies=1,,2" "item 2 of the list is empty$" -- \
		"$bin" --check-params --param copies=1,,2
	expect_status EXIT_OK "--copies 1,2,N still accepted" -- "$bin" --check-params --copies 1,2,N
	expect_status EXIT_OK "--tests syscall,getpid still accepted" -- \
		"$bin" --check-params --tests syscall,getpid

	# Many unknown names: whole names, then how many more, never a name cut in two.
	many=$(seq -f 'nosuch%g' 1 60 | paste -sd,)
	usage_line "--tests with 60 unknown names" \
		"^isobench: unknown test or group: nosuch1,.*,nosuch[0-9]+ and [0-9]+ more \(isobench --list shows them\)$" \
		-- "$bin" --check-params --tests "$many"

	# ---- --console: consoles only, all of them at once ----------------------------------
	for v in sda nvme0n1 null ttyS4 hvc8 AUTO; do
		usage_line "--console $v" "^isobench: --console $v: '$v' is not a console: " -- \
			"$bin" --check-params --console "$v"
	done
	usage_line "--console auto,ttyS0 (auto stands alone)" "'auto' is not a console" -- \
		"$bin" --check-params --console auto,ttyS0
	usage_line "--console ttyS0,," "item 2 of the list is empty$" -- \
		"$bin" --check-params --console ttyS0,,
	every=ttyS0,ttyS1,ttyS2,ttyS3,ttyAMA0,ttyAMA1,ttyAMA2,ttyAMA3,hvc0,hvc1,hvc2,hvc3,hvc4,hvc5,hvc6,hvc7,tty0
	expect_status EXIT_OK "--console naming each of the 17 consoles once" -- \
		"$bin" --check-params --console "$every"
	usage_line "--console with 21 names" "at most 20 consoles$" -- \
		"$bin" --check-params --console "$every,ttyS0,ttyS1,ttyS2,ttyS3"
	for v in auto all ttyS1 hvc0,tty0 ttyAMA0; do
		expect_status EXIT_OK "--console $v accepted" -- "$bin" --check-params --console "$v"
	done

	# ---- --tmpdir: resolved, and only where the tests' paths work ------------------------
	# "DIR////..." (300 slashes) once cut the work directory's path back to DIR itself, which
	# the run then removed: the user's directory and its files were gone.
	mkdir -p "$tmp/keep"
	echo precious >"$tmp/keep/file"
	slashes=$(printf '/%.0s' $(seq 300))
	st=0
	"$bin" --suite quick --sample_ms 10 --tests getpid --copies 1 --tmpdir "$tmp/keep$slashes" \
		>"$tmp/keep.log" 2>/dev/null || st=$?
	ran EXIT_OK "$st" "$tmp/keep.log" "--tmpdir DIR followed by 300 slashes"
	if [ -f "$tmp/keep/file" ]; then pass "--tmpdir DIR////...: DIR and its file are still there"
	else fail "--tmpdir DIR////...: the run removed DIR"; fi
	has "$tmp/keep.log" "INFO .*run.workdir=$tmp/keep " "--tmpdir DIR////...: resolved to DIR"
	# A relative --tmpdir: the shell tests chdir before they exec their script.
	st=0
	(cd "$tmp/keep" && "$bin" --suite quick --sample_ms 20 --tests shell1 --copies 1 --tmpdir . \
		>"$tmp/rel.log" 2>/dev/null) || st=$?
	ran EXIT_OK "$st" "$tmp/rel.log" "--tmpdir . runs shell1"
	mkdir -p "$tmp/sp ace" "$tmp/a:b"
	for d in "$tmp/sp ace" "$tmp/a:b"; do
		usage_line "--tmpdir '$d'" "^isobench: --tmpdir $d: white space or ':' in the path" -- \
			"$bin" --check-params --tmpdir "$d"
	done
	deep=$tmp/$(printf 'd%.0s' $(seq 120))/$(printf 'e%.0s' $(seq 120))
	mkdir -p "$deep"
	usage_line "--tmpdir of ${#deep} characters" "path too long \([0-9]+ characters, at most 200\)$" \
		-- "$bin" --check-params --tmpdir "$deep"

	# ---- what --list, --help and --version print must arrive ----------------------------
	for o in --list --help --version; do
		usage_line "$o >/dev/full" "^isobench: standard output could not be written" -- \
			to_full "$bin" "$o"
		usage_line "$o >&-" "^isobench: standard output could not be written" -- \
			to_closed "$bin" "$o"
	done
	expect_status EXIT_OK "--list to a file" -- "$bin" --list
	has "$tmp/stdout" "^syscall +index " "--list printed the tests"
else
	skip "$bin not built: the CLI's checks"
fi

# ---- many copies: a SAMPLE's per-copy lists are whole or left out, and then said so -------------
# --copies takes up to 4096, but one record holds 16 KiB: with 600 copies the ns list once
# stopped at ~455 entries (each value then paired with the wrong copy) and the keys that did
# not fit vanished with no dropped_fields.
if [ -x "$bin" ]; then
	st=0
	"$bin" --suite quick --sample_ms 10 --tests getpid --copies 600 >"$tmp/c600.log" \
		2>/dev/null || st=$?
	ran EXIT_OK "$st" "$tmp/c600.log" "600 copies of getpid"
	awk '/ SAMPLE / { for (i = 1; i <= NF; i++) if ($i ~ /^(loops|ns|ran_loops|ran_ns|cpus|migrations|nivcsw|cpu_ns)=/) {
		v = $i; sub(/^[a-z_]+=/, "", v); print split(v, a, ",") } }' "$tmp/c600.log" >"$tmp/c600.n"
	count_is "$tmp/c600.n" "^600$" "$(wc -l <"$tmp/c600.n")" "600 copies: every per-copy list written has 600 entries"
	has "$tmp/c600.log" " SAMPLE .* dropped_fields=[0-9]+ " "600 copies: the SAMPLEs say what they left out"
	if make -s -C "$top/tests/unit" O="$tmp/vd" "$tmp/vd/vocab-dump" >"$tmp/vd.log" 2>&1; then
		"$tmp/vd/vocab-dump" --check <"$tmp/c600.log" >"$tmp/c600.vocab" || true
		has "$tmp/c600.vocab" "^[0-9]+ records, 0 problems$" "600 copies: the records keep the vocabulary"
	else
		skip "vocab-dump does not build: $(head -c 200 "$tmp/vd.log")"
	fi
else
	skip "$bin not built: the many-copies check"
fi

# ---- isobench-report: usage errors are one line, a DIR is a fleet and only that ---------------
report=$out/isobench-report
if [ -x "$report" ] && [ -x "$bin" ]; then
	"$bin" --suite quick --sample_ms 20 --tests getpid --copies 1 >"$tmp/run.log" 2>/dev/null ||
		true
	complete "$tmp/run.log" "a native run to report on"
	mkdir -p "$tmp/fleet"
	cp "$tmp/run.log" "$tmp/fleet/a.log"
	usage_line "report --bogus" "^isobench-report: unknown option '--bogus' \(see --help\)$" \
		-- "$report" --bogus "$tmp/run.log"
	usage_line "report --run (no value)" "^isobench-report: option '--run' needs a value" -- \
		"$report" "$tmp/run.log" --run
	usage_line "report --check and no LOG" "^isobench-report: no LOG to read \(see --help\)$" \
		-- "$report" --check
	usage_line "report --check DIR" "fleet is a directory of logs: give it alone, without --check$" \
		-- "$report" --check "$tmp/fleet"
	usage_line "report --boot DIR" "without --boot$" -- "$report" --boot "$tmp/fleet"
	usage_line "report DIR LOG" "without other LOGs$" -- "$report" "$tmp/fleet" "$tmp/run.log"
	usage_line "report DIR DIR" "without other LOGs$" -- "$report" "$tmp/fleet" "$tmp/fleet"
	expect_status EXIT_OK "report DIR alone is a fleet" -- "$report" "$tmp/fleet"
	has "$tmp/stdout" "^fleet: 1 run\(s\)" "the fleet report is printed"
	for v in a,,b "a," ,b; do
		usage_line "report --label $v" "^isobench-report: --label $v: a label is empty$" -- \
			"$report" --label "$v" "$tmp/run.log" "$tmp/run.log"
	done
	expect_status EXIT_OK "report --label a,b with two LOGs" -- \
		"$report" --label a,b "$tmp/run.log" "$tmp/run.log"
	# "-" is standard input (a pipe from the capture), once, and not followed.
	stdin_check() { "$report" --check - <"$tmp/run.log"; }
	expect_status EXIT_OK "report --check - reads standard input" -- stdin_check
	has "$tmp/stdout" "^isobench-report: run 1 of 1 complete: 1 results" "report -: the run's verdict"
	usage_line "report - -" "^isobench-report: '-' \(standard input\) is one LOG" -- \
		"$report" - -
	usage_line "report --follow -" "^isobench-report: '-' \(standard input\) is one LOG" -- \
		"$report" --follow -
else
	skip "$report or $bin not built: the report's usage checks"
fi

# ---- qemu/run: a guest too small to start says so ----------------------------------------------
# With --mem 32M the guest resets before the kernel's first message: QEMU ends by itself at
# once with an empty serial log. Status 3 (no complete run), and a line that says why.
if command -v qemu-system-x86_64 >/dev/null && [ -r "$out/bzImage" ] && [ -x "$report" ]; then
	expect_status EXIT_INCOMPLETE "qemu/run --mem 32M: no complete run" -- "$top/qemu/run" --out "$out" \
		--direct --accel tcg --suite quick --tests syscall --copies 1 --mem 32M --timeout 60 \
		--log "$tmp/mem32.log"
	has "$tmp/stderr" "^qemu/run: note: the guest wrote nothing before QEMU ended: .*--mem 32M" \
		"qemu/run --mem 32M: says the guest wrote nothing and names the memory"
	# One real boot: a console that is no console is an ERROR record, the default kept.
	expect_status EXIT_FAILS "qemu/run --params isobench.console=sda: an ERROR record" -- \
		"$top/qemu/run" --out "$out" --direct --accel tcg --suite quick --tests syscall \
		--copies 1 --params isobench.console=sda --timeout 120 --log "$tmp/sda.log"
	has "$tmp/sda.log" "ERROR what=param param=isobench.console value=sda reason='sda'%20is%20not%20a%20console" \
		"console=sda: the ERROR record says why"
	has "$tmp/sda.log" "INFO console.used=ttyS0" "console=sda: the default consoles are used"
	lacks "$tmp/sda.log" "console.used=sda" "console=sda: sda is never written to"
else
	skip "no QEMU, $out/bzImage or $report: the qemu/run boots"
fi

# ---- the build: ARCH ----------------------------------------------------------------------------
# An empty ARCH once named payload/arch/arch.mk itself (arch//arch.mk), included over and over
# into a line of thousands of slashes; a word that is no folder is one line, with the list.
# arch_refused ARCH WHAT REGEX: make -C payload ARCH=ARCH is status 2, one line matching
# REGEX, and nothing built (WHAT names the case in the check lines).
arch_refused() {
	local st=0
	make -s -C "$top/payload" O="$tmp/arch-build" ARCH="$1" >"$tmp/arch.out" 2>&1 || st=$?
	status_is MAKE_FAILED "$st" "make -C payload ARCH=$2 is an error"
	count_is "$tmp/arch.out" . 1 "ARCH=$2: one line"
	has "$tmp/arch.out" "$3" "ARCH=$2: the line says why"
	if [ ! -e "$tmp/arch-build" ]; then pass "ARCH=$2: nothing built"
	else fail "ARCH=$2: $tmp/arch-build was made"; fi
}
if command -v musl-gcc >/dev/null; then
	# The supported ones are the folders with an arch.mk, listed sorted (arch.mk's $(sort)).
	supported=$(for f in "$top"/payload/arch/*/arch.mk; do f=${f%/arch.mk}; echo "${f##*/}"; done |
		LC_ALL=C sort | paste -sd' ')
	for a in "" nosuch ../../etc "x86_64 x86_64"; do
		arch_refused "$a" "'$a'" \
			"no support for ARCH '$a' \\(from make ARCH=\\); supported: $supported\\."
	done
	# A supported folder with the wrong compiler: one line saying which compiler it needs.
	host=$(musl-gcc -dumpmachine | cut -d- -f1)
	for a in $supported; do
		[ "$a" = "$host" ] && continue
		arch_refused "$a" "$a (host's $host compiler)" \
			"ARCH '$a' needs a compiler for $a; musl-gcc builds for $host"
	done
else
	skip "no musl-gcc: the build's ARCH checks"
fi

# ---- the build: an in-tree make leaves nothing git shows --------------------------------------
# .gitignore says an in-tree make (make -C payload without O=) leaves only ignored files. Each
# path a Makefile's clean removes at O=. (what that make writes: payload/gen/, the ring-0
# header, is one; a glob as one name it matches) is ignored, as a file or as a folder.
if command -v musl-gcc >/dev/null && git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	for d in payload payload/proc report; do
		words=$(make -s -C "$top/$d" -n clean O=. 2>/dev/null | sed -n 's/^rm -rf //p') || true
		if [ -z "$words" ]; then fail "$d: make -n clean O=. names no path"; continue; fi
		shown=
		read -ra ws <<<"$words"	# as words, never globbed here
		for w in "${ws[@]}"; do
			w=${w#./} && w=$d/${w//\*/1}
			git -C "$top" check-ignore -q --no-index "$w" ||
				git -C "$top" check-ignore -q --no-index "$w/x" || shown+=" $w"
		done
		if [ -z "$shown" ]; then pass "$d: what an in-tree make writes is in .gitignore (${#ws[@]} paths)"
		else fail "$d: an in-tree make leaves what git shows:$shown"; fi
	done
else
	skip "no musl-gcc or no git checkout: the in-tree build's .gitignore check"
fi

# ---- the build: a make with nothing changed links nothing ------------------------------------
# ./build.sh test's background arm64 build runs the host payload's make while the suites run
# out/isobench; a relink then (version.o is compiled every time) made an exec fail with status
# 126. The runner stays the same file: its inode and time are unchanged by a second make.
if command -v musl-gcc >/dev/null && [ -x "$out/isobench" ]; then
	was=$(stat -c '%i %Y' "$out/isobench")
	sleep 1
	make -s -C "$top/payload" O="$out" >/dev/null 2>&1 || true
	now=$(stat -c '%i %Y' "$out/isobench" 2>/dev/null) || true
	if [ "$was" = "$now" ]; then pass "a make with nothing changed leaves out/isobench as it was"
	else fail "a make with nothing changed relinked out/isobench (inode and time $was, now $now)"; fi
else
	skip "no musl-gcc or no out/isobench: the relink check"
fi

finish
