#!/usr/bin/env bash
# tests/test-cpuclock.sh — the CPU's clock, recorded and compared (issue 45 item 1):
#   * natively, every SAMPLE carries mhz= (one figure > 0 per copy) and mhz_method=, the header
#     says the CPU policy in words (no bare "-") and that a host's policy is only read; a
#     --cpufreq that cannot be applied is a WARN what=cpupolicy (checked only without a
#     cpufreq driver, where asking changes nothing);
#   * isobench-report warns when two runs' clock policies differ (cpu.governor, cpufreq.boost)
#     or their effective clocks differ beyond a test's noise floor, shows each run's clock,
#     and says nothing of the kind for runs alike (tests/fixtures/logs/clock-*.log, crafted
#     by make-clock-fixtures.py from a captured run, resealed with tests/seal.py); with
#     replicates over every run of a side (a side whose runs' methods differ: 'mixed'); CSV and
#     JSON carry each test's and side's clock;
#   * a host's policy that --cpufreq changed is put back when a stop signal ends the run outside
#     a test, or its output's reader goes (SIGPIPE) (a planted tree: ISOBENCH_SYSFS_CPU).
# In: OUT/isobench and OUT/isobench-report. Out: "N passed, M failed".
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
fix=$top/tests/fixtures/logs
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
rep=$(report_tool)
bin=${OUT:-$top/out}/isobench
[ -x "$rep" ] || { fail "no $rep (make -C report)"; finish; exit 1; }
[ -x "$bin" ] || { fail "no $bin (make -C payload)"; finish; exit 1; }

# A host's policy put back when a stop signal cuts the run between tests (not only during one):
# a planted tree (ISOBENCH_SYSFS_CPU) with two policies, the second's governor a folder the
# kernel-like write refuses, so the run's first stderr line is the refusal, written after the
# change; stderr is a FIFO already full, so the runner is held there, outside any test, when
# SIGTERM comes. The first policy must read schedutil again after the runner died.
pt=$tmp/sysfs-cpu/
mkdir -p "${pt}cpufreq/policy0" "${pt}cpufreq/policy1/scaling_governor"
echo schedutil >"${pt}cpufreq/policy0/scaling_governor"
mkfifo "$tmp/err.fifo"
exec 3<>"$tmp/err.fifo"
dd if=/dev/zero bs=4096 count=16 status=none >&3	# the pipe's 64 KiB: full
ISOBENCH_SYSFS_CPU=$pt "$bin" --suite quick --tests getpid --cpufreq performance \
	>"$tmp/cut.log" 2>"$tmp/err.fifo" &
cut_pid=$!
for _ in $(seq 100); do
	[ "$(cat "${pt}cpufreq/policy0/scaling_governor")" = performance ] && break
	sleep 0.05
done
seen=$(cat "${pt}cpufreq/policy0/scaling_governor")
sleep 0.5	# the header, then the warning's write, held by the full FIFO
kill -TERM "$cut_pid" 2>/dev/null || true
timeout 10 cat <&3 >/dev/null || true	# let it go on (to the next test's start)
wait "$cut_pid" && cut_rc=0 || cut_rc=$?
exec 3<&-
if [ "$seen" = performance ] && [ "$cut_rc" -eq $((128 + 15)) ] &&
	[ "$(cat "${pt}cpufreq/policy0/scaling_governor")" = schedutil ]; then
	pass "SIGTERM outside a test: the host's governor put back (schedutil), the runner died of it"
else
	fail "SIGTERM outside a test: governor during the run '$seen', after it" \
		"'$(cat "${pt}cpufreq/policy0/scaling_governor")' (want performance, then schedutil), exit $cut_rc (want 143)"
fi
lacks "$tmp/cut.log" " RESULT test=getpid " "SIGTERM before the first test: no test ran"
# ... and when the reader of its output goes first (isobench ... | head -1): SIGPIPE.
echo schedutil >"${pt}cpufreq/policy0/scaling_governor"
rmdir "${pt}cpufreq/policy1/scaling_governor"
{
	rc=0
	ISOBENCH_SYSFS_CPU=$pt "$bin" --suite quick --tests getpid,getpid --cpufreq performance \
		2>/dev/null || rc=$?
	echo "$rc" >"$tmp/pipe.rc"
} | head -1 >/dev/null || true
pipe_rc=$(cat "$tmp/pipe.rc")
if [ "$pipe_rc" -eq $((128 + 13)) ] && [ "$(cat "${pt}cpufreq/policy0/scaling_governor")" = schedutil ]; then
	pass "stdout's reader gone (| head -1): the host's governor put back, the runner died of SIGPIPE"
else
	fail "stdout's reader gone: governor after it '$(cat "${pt}cpufreq/policy0/scaling_governor")'" \
		"(want schedutil), exit $pipe_rc (want 141)"
fi

# 1. A native run: two passes of one cheap test (about 2 s).
"$bin" --suite quick --tests getpid --copies 1,2 >"$tmp/native.log" 2>/dev/null ||
	fail "isobench --tests getpid --copies 1,2 failed"
n=$(grep -c ' SAMPLE ' "$tmp/native.log" || true)
good=$(grep ' SAMPLE ' "$tmp/native.log" |
	grep -cE ' copies=1 .* mhz=[1-9][0-9]* mhz_method=(aperf|cppc|chain) | copies=2 .* mhz=[1-9][0-9]*,[1-9][0-9]* mhz_method=(aperf|cppc|chain) ' || true)
if [ "$n" -ge 8 ] && [ "$good" -eq "$n" ]; then
	pass "every SAMPLE ($n) carries one clock figure > 0 per copy and its method"
else
	fail "$good of $n SAMPLEs carry mhz= per copy and mhz_method= (want all, >= 8)"
fi
for key in cpu.governor cpu.no_turbo cpufreq.driver cpufreq.boost cpufreq.epp cpuidle.driver \
	cpuidle.states cpu.clock_method; do
	if grep -qE " INFO (.* )?$key=[^ -]" "$tmp/native.log" && ! grep -qE " INFO (.* )?$key=- " "$tmp/native.log"; then
		pass "header: $key says what it is (not '-')"
	else
		fail "header: $key missing or '-'"
	fi
done
contains "$tmp/native.log" "cpufreq.set=not%20asked%20(a%20host's%20policy%20is%20only%20read" \
	"a host's clock policy is only read"
if [ -e /dev/cpu/0/msr ]; then
	skip "/dev/cpu/0/msr exists here: the chain's header words are not checked"
else
	contains "$tmp/native.log" "cpu.clock_method=chain:%20APERF%20not%20exposed" \
		"no /dev/cpu/N/msr: the header says APERF is not exposed and the chain is used"
fi
"$rep" --check "$tmp/native.log" >"$tmp/check.txt" 2>&1 || fail "isobench-report --check: the native log does not validate"
lacks "$tmp/native.log" "WARN what=cpupolicy" "nothing asked: no cpupolicy WARN"
# Asked and not applied is said (WARN what=cpupolicy, and on stderr), the run goes on: only
# where no cpufreq driver exists, so that asking changes nothing on this machine.
if [ -e /sys/devices/system/cpu/cpufreq/policy0 ]; then
	skip "this machine has a cpufreq driver: --cpufreq would change it; not asked"
else
	"$bin" --suite quick --tests getpid --cpufreq performance >"$tmp/asked.log" \
		2>"$tmp/asked.err" || fail "isobench --cpufreq performance (no driver) failed"
	contains "$tmp/asked.log" "WARN what=cpupolicy reason=asked%20for%20and%20not%20applied:%20cpufreq%20performance:%20not%20applied%20(none:%20no%20cpufreq%20driver)" \
		"--cpufreq without a cpufreq driver: WARN what=cpupolicy with the reason"
	contains "$tmp/asked.err" "isobench: warning: CPU policy asked for and not applied: cpufreq performance" \
		"--cpufreq without a cpufreq driver: said on stderr"
	contains "$tmp/asked.log" " RESULT test=getpid " "--cpufreq refused: the run goes on"
fi

# 2. The crafted pairs.
"$rep" "$fix/clock-a.log" "$fix/clock-b-policy.log" >"$tmp/ab.txt" 2>&1 || true
contains "$tmp/ab.txt" "warning: not comparable: the CPU clock policy differs (cpu.governor performance in" \
	"governors differ: WARN"
contains "$tmp/ab.txt" "warning: not comparable: the CPU clock policy differs (cpufreq.boost on (intel_pstate no_turbo=0) in" \
	"boost differs: WARN"
lacks "$tmp/ab.txt" "effective clocks differ" "the same clocks: no clock WARN"
"$rep" "$fix/clock-a.log" "$fix/clock-c-slow.log" >"$tmp/ac.txt" 2>&1 || true
contains "$tmp/ac.txt" "warning: not comparable: the CPUs' effective clocks differ (median 2997 MHz by chain in" \
	"a clock 20% lower: WARN with each side's median"
contains "$tmp/ac.txt" "2398 MHz by chain in" "the slower side's median"
lacks "$tmp/ac.txt" "policy differs" "the same policy: no policy WARN"
has "$tmp/ac.txt" '^Double-Precision Whetstone +1 +2995 +20% +2396 +20% ' \
	"the clock table shows each side's median beside the test"
has "$tmp/ac.txt" '^the run \(every SAMPLE\), method +2997 chain +2398 chain' \
	"each run's clock and method"
"$rep" "$fix/clock-a.log" "$fix/clock-a.log" >"$tmp/aa.txt" 2>&1 || true
lacks "$tmp/aa.txt" "CPU clock policy differs" "a run beside itself: no policy WARN"
lacks "$tmp/aa.txt" "effective clocks differ" "a run beside itself: no clock WARN"
# JSON: each test's clock, method and CPU share.
"$rep" --format json "$fix/clock-c-slow.log" >"$tmp/c.json" 2>/dev/null || true
if python3 -c 'import json, sys
t = {x["test"]: x for x in json.load(open(sys.argv[1]))["runs"][0]["tests"]}
w = t["whetstone-double"]
assert w["effective_mhz"] == 2396 and w["mhz_method"] == "chain" and 0 < w["cpu_pct"] <= 100, w
assert w["cpu_bound"] is False, w' "$tmp/c.json"; then
	pass "JSON: a test's effective_mhz, mhz_method, cpu_pct and cpu_bound"
else
	fail "JSON: a test's clock fields"
fi
# Damaged logs, derived from clock-a.log and resealed (tests/seal.py): a test whose mhz= are
# no clock (999999999 MHz: a runner's bug or a hand edit) shows no figure and leaves the run's
# median alone; SAMPLEs without cpu_ns= (no CPU share) show '-' for the share, never "nan".
damage() { # damage SRC DST PYTHON-EXPRESSION-ON-b (a SAMPLE body)
	python3 - "$top/tests" "$1" "$2" "$3" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[1])
from seal import sealed
out = []
for line in open(sys.argv[2], encoding='utf-8'):
    m = re.match(r'@isobench/1 \d+ (.*) \*[0-9a-f]{8}$', line.rstrip('\n'))
    b = m.group(1)
    if b.startswith('SAMPLE '):
        b = eval(sys.argv[4])
    if b.startswith('END '):
        b = re.sub(r' records=\d+', ' records=%d' % len(out), b)
    out.append(b)
open(sys.argv[3], 'w', encoding='utf-8').write(sealed(out))
PY
}
damage "$fix/clock-a.log" "$tmp/absurd.log" \
	"re.sub(r' mhz=\\S+', ' mhz=999999999', b) if ' test=pipe ' in b else b"
"$rep" "$fix/clock-a.log" "$tmp/absurd.log" >"$tmp/absurd.txt" 2>&1 || true
lacks "$tmp/absurd.txt" "999999999" "mhz=999999999 is no clock: not shown as one"
has "$tmp/absurd.txt" '^Pipe Throughput +1 +2998 +18%  +--- *$' \
	"a test whose every mhz= is no clock has no figure ('---')"
has "$tmp/absurd.txt" '^the run \(every SAMPLE\), method +2997 chain +2997 chain' \
	"the run's clock leaves the absurd figures out"
"$rep" --format json "$tmp/absurd.log" >"$tmp/absurd.json" 2>/dev/null || true
if python3 -c 'import json, sys
t = {x["test"]: x for x in json.load(open(sys.argv[1]))["runs"][0]["tests"]}
assert t["pipe"]["effective_mhz"] is None, t["pipe"]' "$tmp/absurd.json"; then
	pass "JSON: a test whose mhz= are no clock has effective_mhz null"
else
	fail "JSON: an absurd mhz= taken as a clock"
fi
damage "$fix/clock-a.log" "$tmp/nocpu.log" "re.sub(r' cpu_ns=\\S+', '', b)"
"$rep" "$fix/clock-a.log" "$tmp/nocpu.log" >"$tmp/nocpu.txt" 2>&1 || true
lacks "$tmp/nocpu.txt" "nan" "SAMPLEs without cpu_ns=: no 'nan' in the clock table"
has "$tmp/nocpu.txt" '^Pipe Throughput +1 +2998 +18%  +2998 +- *$' \
	"SAMPLEs without cpu_ns=: the clock, and '-' for the CPU share"
# Replicates: a side's clock is over all its runs, not its first run's alone. Side b's first
# run at 2997 MHz, its other two at 2398 (clock-c-slow): b's clock is 2398 in every row.
rerun() { # rerun SRC DST RUNID: SRC as another run (its BEGIN run= replaced), resealed
	python3 - "$top/tests" "$1" "$2" "$3" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[1])
from seal import sealed
out = []
for line in open(sys.argv[2], encoding='utf-8'):
    b = re.match(r'@isobench/1 \d+ (.*) \*[0-9a-f]{8}$', line.rstrip('\n')).group(1)
    out.append(re.sub(r'^BEGIN run=[0-9a-f]{16}', 'BEGIN run=' + sys.argv[4], b))
open(sys.argv[3], 'w', encoding='utf-8').write(sealed(out))
PY
}
for k in 1 2 3; do rerun "$fix/clock-a.log" "$tmp/ra$k.log" "c10c0000000001a$k"; done
rerun "$fix/clock-a.log" "$tmp/rb1.log" c10c0000000001b1
for k in 2 3; do rerun "$fix/clock-c-slow.log" "$tmp/rb$k.log" "c10c0000000001b$k"; done
"$rep" --label a,a,a,b,b,b "$tmp"/ra{1,2,3}.log "$tmp"/rb{1,2,3}.log >"$tmp/rep.txt" 2>&1 || true
has "$tmp/rep.txt" '^Double-Precision Whetstone +1 +2995 +20% +2396 +20% ' \
	"replicates: a side's clock is the median over its runs (2 of 3 at 2396 MHz)"
has "$tmp/rep.txt" '^the run \(every SAMPLE\), method +2997 chain +2398 chain' \
	"replicates: each side's clock over its runs"
# The WARN, too, is over every run of a side (it compared the sides' first runs: both 2997
# here, so no WARN), and a side whose first run alone is slow is not warned about.
contains "$tmp/rep.txt" "warning: not comparable: the CPUs' effective clocks differ (median 2997 MHz by chain in a, 2398 MHz by chain in b:" \
	"replicates: the clock WARN compares the sides' medians over their runs"
rerun "$fix/clock-c-slow.log" "$tmp/rs1.log" c10c0000000001c1
for k in 2 3; do rerun "$fix/clock-a.log" "$tmp/rs$k.log" "c10c0000000001c$k"; done
"$rep" --label a,a,a,s,s,s "$tmp"/ra{1,2,3}.log "$tmp"/rs{1,2,3}.log >"$tmp/rs.txt" 2>&1 || true
lacks "$tmp/rs.txt" "MHz by chain in a, " \
	"replicates: a side whose first run alone is slower (median alike) gets no cross-side clock WARN"
contains "$tmp/rs.txt" "2398 MHz by chain in s run 1, 2997 MHz by chain in s run 2" \
	"replicates: that run is still named within its side"
# A side whose runs measured the clock by different methods (one run's SAMPLEs by aperf, two
# by the chain): its median mixes them, and its method says so rather than the first run's.
python3 - "$top/tests" "$tmp/rb1.log" "$tmp/rm1.log" <<'PY'
import re, sys
sys.path.insert(0, sys.argv[1])
from seal import sealed
out = [re.sub(r' mhz_method=chain', ' mhz_method=aperf',
              re.match(r'@isobench/1 \d+ (.*) \*[0-9a-f]{8}$', l.rstrip('\n')).group(1))
       for l in open(sys.argv[2], encoding='utf-8')]
open(sys.argv[3], 'w', encoding='utf-8').write(sealed(out))
PY
"$rep" --label a,a,a,m,m,m "$tmp"/ra{1,2,3}.log "$tmp"/rm1.log "$tmp"/rb{2,3}.log >"$tmp/rm.txt" 2>&1 || true
has "$tmp/rm.txt" '^the run \(every SAMPLE\), method +2997 chain +2398 mixed' \
	"replicates by aperf and chain: the side's method is 'mixed', not its first run's"
contains "$tmp/rm.txt" "2398 MHz by mixed methods in m:" "... and the clock WARN says so"
"$rep" --format json --label a,a,a,m,m,m "$tmp"/ra{1,2,3}.log "$tmp"/rm1.log "$tmp"/rb{2,3}.log >"$tmp/rm.json" 2>/dev/null || true
if python3 -c 'import json, sys
rows = json.load(open(sys.argv[1]))["comparison"]["rows"]
w = [r for r in rows if r["test"] == "whetstone-double"][0]["cells"]
assert [c["mhz_method"] for c in w] == ["chain", "mixed"], w' "$tmp/rm.json"; then
	pass "JSON: a side of mixed methods says mixed"
else
	fail "JSON: a side of mixed methods: its cell's mhz_method"
fi
# CSV and JSON carry the clock: each run's test (effective_mhz, mhz_method) and each side's
# median over its runs per compared row (CSV effective_mhz_side, mhz_method_side; JSON cells).
"$rep" --format csv --label a,a,a,b,b,b "$tmp"/ra{1,2,3}.log "$tmp"/rb{1,2,3}.log >"$tmp/rep.csv" 2>/dev/null || true
has "$tmp/rep.csv" '^[^,]*rb1\.log,b,c10c0000000001b1,derived,16,,,whetstone-double,1,effective_mhz_side,2396,MHz' \
	"CSV: side b's clock for a row, the median over its runs"
has "$tmp/rep.csv" '^[^,]*rb1\.log,b,c10c0000000001b1,derived,16,,,whetstone-double,1,mhz_method_side,chain,' \
	"CSV: side b's clock method for a row"
has "$tmp/rep.csv" '^[^,]*rb2\.log,b,c10c0000000001b2,derived,[0-9]+,,,whetstone-double,1,effective_mhz,2396,MHz' \
	"CSV: a run's own clock per test"
"$rep" --format json --label a,a,a,b,b,b "$tmp"/ra{1,2,3}.log "$tmp"/rb{1,2,3}.log >"$tmp/rep.json" 2>/dev/null || true
if python3 -c 'import json, sys
rows = json.load(open(sys.argv[1]))["comparison"]["rows"]
w = [r for r in rows if r["test"] == "whetstone-double"][0]["cells"]
assert [c["effective_mhz"] for c in w] == [2995, 2396], w
assert [c["mhz_method"] for c in w] == ["chain", "chain"], w' "$tmp/rep.json"; then
	pass "JSON: each cell carries its side's clock (median over its runs) and method"
else
	fail "JSON: the cells' effective_mhz/mhz_method"
fi
# An older log without mhz= or policy words: nothing said, nothing invented.
"$rep" "$fix/native.log" "$fix/native-loaded.log" >"$tmp/old.txt" 2>&1 || true
lacks "$tmp/old.txt" "effective clock" "logs without mhz=: no clock table"
lacks "$tmp/old.txt" "CPU clock policy" "logs without policy words: no policy WARN"

finish
