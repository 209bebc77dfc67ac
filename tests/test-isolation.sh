#!/usr/bin/env bash
# tests/test-isolation.sh — the runner in real isolation layers that need no hardware
# virtualization (issue 47): as PID 1 of a fresh PID namespace, of a gVisor sandbox and of
# User-Mode Linux booting our initramfs, and isolation/run comparing them.
#
# In:  $OUT/isobench, isobench-proc, isobench-report, initramfs.cpio.gz (OUT defaults to out/);
#      unshare (util-linux), Debian's user-mode-linux (/usr/bin/linux) and runsc (gVisor),
#      root (runsc do, unshare --pid); tests/fixtures/layers/ (5 native + 5 UML runs of the
#      process tests, recorded here by isolation/run, the machine's paths made out/).
# Out: one line per assertion, then "N passed, M failed, K skipped". Errors: exit 1 on a failure.
# Checked:
#   * PID 1 of `unshare -fp --mount-proc` is a program: its arguments, records on stdout, its
#     exit status (OK, FAILS, USAGE), SIGTERM passed on to the run (ends SIGTERM's status);
#   * --proc PATH / ISOBENCH_PROC name isobench-proc; a missing one SKIPs saying how to give it;
#     another program named (/bin/true, yes) is a usage error, not a figure of its own;
#   * the initramfs holds the image's identity; UML boots it, /init is the image's init even
#     with a stray word the kernel hands it as an argument, the run completes, UML halts;
#   * isolation/run: 3 rounds of native, uml and gvisor interleaved (the order rotates), every
#     log complete and headed by its layer, version, platform and round; gVisor's runs took
#     their arguments (mode host, the tests asked for, gVisor's kernel); UML's and gVisor's
#     process tests are slower than native's (ratio < 1);
#   * the verdict on stored replicates: 5 native + 5 UML runs of execl and spawn, the process
#     tests judged different (status DIFFERS; the answer "different: N% slower").
# Fails on a broken build: PID 1 taking the image's init path whatever the root (main.c's old
# `getpid() == 1`) prints nothing and never ends in the namespace, ignores gVisor's arguments;
# an initramfs without the identity file runs UML's /init as a program (no "System halted").
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
bin=$out/isobench
report=$out/isobench-report
fix=$top/tests/fixtures/layers
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
export TMPDIR=$tmp

# ---- PID 1 of a fresh PID namespace -----------------------------------------------------------
if [ "$(id -u)" -ne 0 ] || ! unshare -fp --mount-proc true 2>/dev/null; then
	skip "PID 1 of a PID namespace: unshare -fp --mount-proc cannot run here (it needs root and a root it can make private: not a chroot)"
else
	st=0
	timeout 120 unshare -fp --mount-proc "$bin" --suite quick --tests syscall,execl --copies 1 \
		>"$tmp/ns.log" 2>"$tmp/ns.err" || st=$?
	ran EXIT_OK "$st" "$tmp/ns.log" "PID 1 of unshare -fp: a complete run, its own status"
	has "$tmp/ns.log" " INFO .*run\.mode=host .*run\.tests=syscall,execl " "PID 1 of unshare -fp took its arguments (mode host, --tests)"
	has "$tmp/ns.log" " RESULT test=execl copies=1 " "PID 1 of unshare -fp: execl found isobench-proc beside the runner"
	lacks "$tmp/ns.err" "cannot bring lo up" "PID 1 of unshare -fp set nothing up (no loopback, no consoles)"
	expect_status EXIT_USAGE "PID 1 of unshare -fp: a bad option is its usage error" -- \
		timeout 60 unshare -fp --mount-proc "$bin" --bogus
	contains "$tmp/stderr" "unknown option '--bogus'" "PID 1 of unshare -fp: the usage error says which option"
	expect_status EXIT_FAILS "PID 1 of unshare -fp: a run with an ERROR ends with FAILS" -- \
		timeout 60 unshare -fp --mount-proc "$bin" --suite quick --tests selftest-error
	# SIGTERM to the namespace's PID 1 (from outside) is passed on: the run stops, its status
	# is SIGTERM's, as the runner's own death of the signal.
	timeout 120 unshare -fp --mount-proc "$bin" --suite quick --tests syscall --sample_ms 5000 \
		>"$tmp/term.log" 2>"$tmp/term.err" &
	upid=$!
	p1=
	for _ in $(seq 150); do # up to 30 s: a loaded host starts slowly
		p1=$(pgrep -P "$(pgrep -P "$upid" -x unshare || echo "$upid")" | head -n 1) || true
		[ -n "$p1" ] && grep -q ' BEGIN ' "$tmp/term.log" 2>/dev/null && break
		sleep 0.2
	done
	[ -z "$p1" ] || kill -TERM "$p1" 2>/dev/null || true
	st=0
	wait "$upid" || st=$?
	status_is SIGTERM "$st" "SIGTERM to PID 1 of unshare -fp: passed on, the run ends of it"
	contains "$tmp/term.err" "Terminated during syscall" "SIGTERM reached the run (its test stopped, its files removed)"
	# SIGKILL to the program (PID 1's child) from outside: nobody passed it on and the program
	# cannot say it died, so PID 1 says so and ends with 128 + 9 (it said nothing before).
	timeout 120 unshare -fp --mount-proc "$bin" --suite quick --tests syscall --sample_ms 5000 \
		>"$tmp/kill.log" 2>"$tmp/kill.err" &
	upid=$!
	prog=''
	for _ in $(seq 150); do # up to 30 s: a loaded host starts slowly
		p1=$(pgrep -P "$(pgrep -P "$upid" -x unshare || echo "$upid")" -x isobench | head -n 1) || true
		prog=$([ -z "$p1" ] || pgrep -P "$p1" -x isobench | head -n 1) || true
		[ -n "$prog" ] && grep -q ' BEGIN ' "$tmp/kill.log" 2>/dev/null && break
		sleep 0.2
	done
	[ -z "$prog" ] || kill -KILL "$prog" 2>/dev/null || true
	st=0
	wait "$upid" || st=$?
	status_is SIGKILL "$st" "SIGKILL to PID 1's program: PID 1 ends with 128 + 9"
	has "$tmp/kill.err" "^isobench: PID 1: the run \(pid [0-9]+\) died of signal 9 \(Killed\); no END, status 137$" \
		"SIGKILL to PID 1's program: PID 1 says the run died of it"
	lacks "$tmp/term.err" "PID 1: the run" "SIGTERM passed on: PID 1 adds nothing to the program's own words"

	# The reaper: a test's child that leaves an orphan (a --proc wrapper whose subshell starts
	# a sleep and exits) hands it to the namespace's PID 1, which must reap it when it ends:
	# while the run goes on (syscall's long samples), no process of the namespace is a zombie,
	# and the run's status is the program's.
	printf '#!/bin/sh\n(sleep 0.5 </dev/null >/dev/null 2>&1 &)\nexec %q "$@"\n' "$out/isobench-proc" >"$tmp/orphaner"
	chmod +x "$tmp/orphaner"
	timeout 120 unshare -fp --mount-proc "$bin" --proc "$tmp/orphaner" --suite quick \
		--tests spawn,syscall --copies 1 --sample_ms 3000 >"$tmp/reap.log" 2>"$tmp/reap.err" &
	upid=$!
	p1='' zombies='' seen=0
	for _ in $(seq 150); do # the spawn RESULT, then 2 s for its orphans' sleeps to end
		p1=$(pgrep -P "$(pgrep -P "$upid" -x unshare || echo "$upid")" -x isobench | head -n 1) || true
		grep -q ' RESULT test=spawn ' "$tmp/reap.log" 2>/dev/null && break
		sleep 0.2
	done
	sleep 2
	if [ -n "$p1" ] && ! grep -q ' END ' "$tmp/reap.log"; then
		seen=$(pgrep -P "$p1" | wc -l) || true
		zombies=$(ps -o pid=,stat=,comm= --ppid "$p1" | awk '$2 ~ /^Z/' | tr '\n' ' ')
	fi
	st=0
	wait "$upid" || st=$?
	if [ -n "$p1" ] && [ "$seen" -ge 1 ] && [ -z "$zombies" ]; then
		pass "PID 1 of unshare -fp reaped the orphans a test's child left (no zombie among its $seen children mid-run)"
	else fail "PID 1 of unshare -fp: pid '${p1:-none}', children $seen, zombies '${zombies:-none}'"; fi
	ran EXIT_OK "$st" "$tmp/reap.log" "PID 1 with orphans to reap: a complete run, the program's status"
	has "$tmp/reap.log" " RESULT test=spawn copies=1 " "the orphan-leaving --proc ran (spawn's RESULT)"
fi

# ---- isobench-proc: named, or missing with how to give it -------------------------------------
mkdir "$tmp/alone"
cp "$bin" "$tmp/alone/isobench"
st=0
"$tmp/alone/isobench" --suite quick --tests execl --copies 1 >"$tmp/alone.log" 2>&1 || st=$?
has "$tmp/alone.log" " SKIP test=execl .*no%20isobench-proc%20beside%20.*--proc%20PATH%20or%20ISOBENCH_PROC=PATH" \
	"no isobench-proc: execl SKIPs saying where it looked and how to give one"
st=0
"$tmp/alone/isobench" --proc "$out/isobench-proc" --suite quick --tests execl --copies 1 >"$tmp/named.log" 2>&1 || st=$?
ran EXIT_OK "$st" "$tmp/named.log" "--proc PATH: a complete run"
has "$tmp/named.log" " RESULT test=execl copies=1 " "--proc PATH: execl ran the named isobench-proc"
st=0
ISOBENCH_PROC=$out/isobench-proc "$tmp/alone/isobench" --suite quick --tests spawn --copies 1 >"$tmp/env.log" 2>&1 || st=$?
has "$tmp/env.log" " RESULT test=spawn copies=1 " "ISOBENCH_PROC=PATH: spawn ran the named isobench-proc"
expect_status EXIT_USAGE "--proc naming no executable file is a usage error" -- \
	"$bin" --proc "$tmp/none" --suite quick --tests execl
contains "$tmp/stderr" "not an executable file" "--proc: the usage error says why"
# Another program named as isobench-proc would give the process tests its own figure
# (/bin/true as execl's program: one exec counted as N, 1e16 lps): it must answer
# isobench-proc's spawn-serve request first.
expect_status EXIT_USAGE "--proc naming another program (/bin/true) is a usage error" -- \
	"$bin" --proc /bin/true --suite quick --tests execl --copies 1
contains "$tmp/stderr" "not isobench-proc: it ended without answering the spawn-serve request" \
	"--proc /bin/true: the usage error says it is not isobench-proc"
if grep -q "RESULT test=execl" "$tmp/stdout"; then fail "--proc /bin/true: an execl figure of /bin/true's"
else pass "--proc /bin/true: no execl figure of /bin/true's"; fi
expect_status EXIT_USAGE "ISOBENCH_PROC naming a program answering garbage (yes) is a usage error" -- \
	env ISOBENCH_PROC=/usr/bin/yes "$bin" --suite quick --tests spawn --copies 1
contains "$tmp/stderr" "its answer to the spawn-serve request is not isobench-proc's" \
	"ISOBENCH_PROC=yes: the usage error says why"

# ---- memory that cannot be mapped SKIPs ---------------------------------------------------------
# An address-space limit below the set: mmap's ENOMEM in setup is a SKIP saying so (a FAIL
# "setup: mmap of 268435456 bytes failed" before), the run complete with status OK.
st=0
(ulimit -v 200000 && exec "$bin" --suite quick --tests mem-latency-256m-4k --copies 1) >"$tmp/enomem.log" 2>/dev/null || st=$?
ran EXIT_OK "$st" "$tmp/enomem.log" "ulimit -v 200000: mem-latency-256m-4k's run is complete"
has "$tmp/enomem.log" " SKIP test=mem-latency-256m-4k copies=1 reason=its%20memory%20cannot%20be%20had%20here%20\(ENOMEM\):%20mmap%20of%20268435456%20bytes%20failed" \
	"ulimit -v 200000: mem-latency-256m-4k SKIPs, its memory cannot be had (ENOMEM)"

# ---- User-Mode Linux boots the initramfs --------------------------------------------------------
cpio_list() { gzip -dc "$1" | cpio -t --quiet 2>/dev/null; }
cpio_list "$out/initramfs.cpio.gz" >"$tmp/cpio.list"
ident=$(sed -n 's/^#define INIT_IDENTITY "\/\(.*\)"$/\1/p' "$top/payload/pid1/init.h")
has "$tmp/cpio.list" "^${ident:-no-identity-defined}\$" "the initramfs holds the image's identity ($ident)"
if ! command -v linux >/dev/null; then
	fail "no User-Mode Linux kernel 'linux' (build.sh's test packages: user-mode-linux)"
else
	# "straytoken": no '=' and no '.', so the kernel hands it to /init as argv[1].
	st=0
	timeout 300 linux mem=512M "initrd=$out/initramfs.cpio.gz" isobench.suite=quick \
		isobench.tests=execl,spawn,mem-latency-256m-4k isobench.copies=1 straytoken con0=fd:0,fd:1 con=null \
		</dev/null >"$tmp/uml.log" 2>&1 || st=$?
	status_is EXIT_OK "$st" "UML boot of the quick suite ends (UML's own status)"
	complete "$tmp/uml.log" "UML: a complete run"
	has "$tmp/uml.log" " BEGIN .* mode=init " "UML: /init took the image's init path despite its argument"
	has "$tmp/uml.log" "Run /init as init process" "UML: the kernel ran our /init"
	has "$tmp/uml.log" "Unknown kernel command line parameters \"straytoken.*will be passed to user space" \
		"UML: the kernel gave /init an argument (the stray word)"
	has "$tmp/uml.log" " RESULT test=spawn copies=1 " "UML: spawn ran isobench-proc from the initramfs"
	has "$tmp/uml.log" "System halted" "UML: the run's end halted UML"
	has "$tmp/uml.log" " END .*clocksource=timer " "UML: the END names UML's clocksource, timer"
	# 256 MiB of 4 KiB pages is 65,536 host mappings, past the host's default vm.max_map_count:
	# UML killed the copy ("crashed (signal 9)", a FAIL) before mem_spare() knew the limit.
	has "$tmp/uml.log" " SKIP test=mem-latency-256m-4k copies=1 reason=UML%20maps%20each%20page%20on%20the%20host:%2065536%20pages%20pass%20vm.max_map_count" \
		"UML: mem-latency-256m-4k SKIPs naming the host's mapping limit (no FAIL)"
fi

# ---- isolation/run: native, UML, gVisor interleaved ---------------------------------------------
if ! command -v runsc >/dev/null; then
	fail "no gVisor 'runsc' (build.sh's test packages: runsc)"
elif ! timeout 60 runsc --network=none "do" /bin/true >"$tmp/runsc.err" 2>&1; then
	skip "gVisor cannot start a sandbox here: $(head -c 200 "$tmp/runsc.err")"
else
	st=0
	timeout 900 "$top/isolation/run" --out "$out" --layers native,uml,gvisor --repeat 3 --suite quick \
		--tests execl,spawn --copies 1 --uml-mem 256M --logs "$tmp/layers" >"$tmp/layers.out" 2>&1 || st=$?
	if [ "$st" -eq "$EXIT_OK" ] || [ "$st" -eq "$EXIT_DIFFERS" ]; then
		pass "isolation/run: the comparison's status is OK or DIFFERS (status $st)"
	else fail "isolation/run: status $st: $(tail -n 5 "$tmp/layers.out" | tr '\n' '|')"; fi
	for l in native uml gvisor; do
		for r in 1 2 3; do
			complete "$tmp/layers/$l-r$r.log" "isolation/run: $l round $r complete"
		done
	done
	has "$tmp/layers/uml-r1.log" "^# isolation/run: layer=uml version=User-Mode Linux [0-9]" "the UML log's header names the layer and its version"
	has "$tmp/layers/uml-r1.log" "^# isolation/run: platform=skas0 mem=256M " "the UML log's header names its mode and memory"
	has "$tmp/layers/gvisor-r1.log" "^# isolation/run: layer=gvisor version=runsc version " "the gVisor log's header names runsc's version"
	has "$tmp/layers/gvisor-r1.log" "^# isolation/run: platform=ptrace network=none " "the gVisor log's header names its platform and network"
	has "$tmp/layers/native-r1.log" "^# isolation/run: round=1 of 3 place=1 order=native,uml,gvisor$" "round 1 runs in --layers' order"
	has "$tmp/layers/native-r2.log" "^# isolation/run: round=2 of 3 place=3 order=uml,gvisor,native$" "round 2's order is rotated"
	has "$tmp/layers/native-r3.log" "^# isolation/run: round=3 of 3 place=2 order=gvisor,native,uml$" "round 3's order is rotated again"
	has "$tmp/layers/gvisor-r2.log" " INFO .*kernel\.release=4\.4\.0 " "gVisor's run saw gVisor's kernel, not the host's"
	has "$tmp/layers/gvisor-r2.log" " INFO .*run\.mode=host .*run\.tests=execl,spawn " "gVisor: the runner as PID 1 took its arguments"
	has "$tmp/layers/gvisor-r2.log" " RESULT test=execl copies=1 " "gVisor: execl found isobench-proc (--proc)"
	has "$tmp/layers/uml-r3.log" "System halted" "UML in isolation/run halted"
	# The comparison's table: native, uml, ratio, gvisor-ptrace, ratio; the process tests' ratios
	# (two decimals: 0.00 when below 0.005) < 1.
	for t in "Execl Throughput" "Process Creation"; do
		line=$(grep -m1 "^$t  " "$tmp/layers.out" || true)
		ratios=$(sed -E 's/!//g; s/ [*~?]( |$)/ /g' <<<"$line" | awk '{ print $(NF - 2), $NF }')
		if [ -n "$line" ] && awk -v a="${ratios% *}" -v b="${ratios#* }" \
			'BEGIN { exit !(a ~ /^[0-9]+\.[0-9]+$/ && a < 1 && b ~ /^[0-9]+\.[0-9]+$/ && b < 1) }'; then
			pass "isolation/run: $t slower under UML and gVisor than natively (ratios $ratios)"
		else fail "isolation/run: $t: ratios '$ratios' from '$line'"; fi
	done
fi

# ---- the verdict on stored replicates: 5 native + 5 UML -------------------------------------------
labels=native,native,native,native,native,uml,uml,uml,uml,uml
logs=()
for l in native uml; do for r in 1 2 3 4 5; do logs+=("$fix/$l-r$r.log"); done; done
st=0
"$report" --label "$labels" "${logs[@]}" >"$tmp/verdict.out" 2>&1 || st=$?
status_is EXIT_DIFFERS "$st" "native vs UML replicates: some process test differs"
for t in "Execl Throughput" "Process Creation"; do
	# the replicates' verdict line: TEST COPIES SIDE RUNS TEST p RATIO [CI] MARK ANSWER (one
	# of the report's three: different, equivalent, undecided; docs/report.md)
	has "$tmp/verdict.out" "^$t +1 +uml +5\+5 .* 0\.[0-9]+ \[0\.[0-9]+, 0\.[0-9]+\] \* different: [0-9.]+(x|%) slower" \
		"$t: UML judged different and slower, its ratio's 95% interval below 1"
done
# docs/benchmarks/layers.sh, the page's tables from these logs: the index table per layer in
# UnixBench's form (BASELINE, RESULT, INDEX, runs) and the comparison with the three answers.
REPORT=$report "$top/docs/benchmarks/layers.sh" "$fix" >"$tmp/page.md" 2>"$tmp/page.err" || true
has "$tmp/page.md" "^Execl Throughput \| 43\.0 \| [0-9.]+ lps \| [0-9.]+ \| 5$" "layers.sh: Execl's index row per layer (BASELINE 43.0, RESULT, INDEX, 5 runs)"
has "$tmp/page.md" "^#### The comparison: \`isobench-report --label native,native,native,native,native,uml,uml,uml,uml,uml LOGS\`$" \
	"layers.sh: the comparison names its command"
has "$tmp/page.md" "^Process Creation +1 +uml +5\+5 .* \* different: " "layers.sh: the comparison gives the report's answer"
timing_done
finish
