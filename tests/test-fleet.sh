#!/usr/bin/env bash
# tests/test-fleet.sh — isobench-report on a directory of logs: runs grouped by hypervisor and
# by machine, per-group medians, spread and ratios.
#
# In:  OUT/isobench-report (OUT defaults to out/), tests/fixtures/logs/native.log (a real
#      capture: pipe, syscall, getpid, 1 copy), python3 (tests/seal.py seals the records).
# Out: one line per assertion, then "N passed, M failed".
# Errors: exit 1 if any check failed.
#
# The fleet is made from native.log: seven copies whose INFO says another hypervisor
# (hv.cpuid and kernel.hypervisor) or CPU model, and whose RESULT and SAMPLE values are the capture's times a known
# factor, each record sealed again with its CRC-32 (docs/records.md). So the answers are known:
# bare metal at 0.9, 1.0, 1.1 (median 1.0) and VMware at 0.45, 0.5, 0.55 (median 0.5) give a
# VMware/bare ratio of 0.5 on every test, different (the runs are the unit: Welch's t on the
# log run values, 3 + 3, t 8.4 on 4 df, p 0.001 < 0.01); one KVM
# run at 0.9 gives 0.9 and '?' (one machine: no verdict). A truncated log in the same
# directory is named, left out, and makes the status 3 while the rest is still reported.
# A second, synthetic fleet's runs drift together (each run's ten samples within 0.2 % of its
# value, the runs 10 % apart): bare metal at 0.9, 1.0, 1.1 and VMware at 1.0, 1.1, 1.2 of
# 1000 lps are one spread of machines, not two kinds (Welch's t on the runs: p 0.3, '~');
# their 30 + 30 pooled samples, which the fleet used to test, give Mann-Whitney p 0.0001
# and flagged it ('*').
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
rep=$out/isobench-report
[ -x "$rep" ] || { bad "no $rep (run ./build.sh first)"; finish; exit 1; }

mkdir "$tmp/fleet"
PYTHONPATH=$top/tests python3 - "$top/tests/fixtures/logs/native.log" "$tmp/fleet" <<'PY'
import re, sys
from seal import seal
src, d = sys.argv[1:]
base = open(src, "rb").read().decode("ascii")

KERNEL = {"none": "none", "VMwareVMware": "VMware", "KVMKVMKVM": "KVM"}

def variant(name, cpuid, model, factor):
    out = []
    for line in base.split("\n"):
        if line.startswith("@isobench/1 "):
            body = line[:line.rindex(" *")]
            body = body.replace("hv.cpuid=KVMKVMKVM", "hv.cpuid=" + cpuid)
            # the kernel's word agrees with the CPU's (the report takes it where the CPU
            # names none: arm64)
            body = body.replace("kernel.hypervisor=KVM", "kernel.hypervisor=" + KERNEL[cpuid])
            body = re.sub(r"cpu\.model=\S+", "cpu.model=" + model, body)
            if " RESULT " in body or " SAMPLE " in body:
                body = re.sub(r" value=([0-9.]+)", lambda m: " value=%.3f" % (float(m.group(1)) * factor), body)
            if " SAMPLE " in body:   # the same loops in a window 1/factor as long: its value x factor
                body = re.sub(r" ns=([0-9,]+)", lambda m: " ns=" + ",".join(
                    str(round(int(x) / factor)) for x in m.group(1).split(",")), body)
            line = seal(body)
        out.append(line)
    open("%s/%s.log" % (d, name), "w").write("\n".join(out))

for i, f in enumerate((0.9, 1.0, 1.1)):
    variant("host%d-bare" % (i + 1), "none", "CPU%20A" if i < 2 else "CPU%20B", f)
for i, f in enumerate((0.45, 0.5, 0.55)):
    variant("host%d-vmware" % (i + 1), "VMwareVMware", "CPU%20A" if i < 2 else "CPU%20B", f)
variant("host9-kvm", "KVMKVMKVM", "CPU%20A", 0.9)
PY
# The capture's whole-run value of pipe (issue 46: a fleet keeps every sample): the log predates
# RESULT whole=, so it is the mean of its non-warm-up SAMPLE values (a rate: work over time).
base_pipe=$(grep -a -E -o 'SAMPLE test=pipe copies=1 i=[0-9]+ .* value=[0-9.]+' "$top/tests/fixtures/logs/native.log" |
	sed 's/.* value=//' | awk '{ s += $1; n++ } END { if (n) printf "%.6f", s / n }') || true

st=0
"$rep" "$tmp/fleet" >"$tmp/text" 2>"$tmp/err" || st=$?
status_is EXIT_OK "$st" "a directory of seven complete, clean logs"
has "$tmp/text" '^fleet: 7 run\(s\) from .* in 3 group\(s\) by hypervisor; reference group: bare-metal$' \
	"grouped by hypervisor: 3 groups, bare metal the reference"
has "$tmp/text" '^group 1: bare-metal \(3 runs\)$' "bare-metal: 3 runs"
has "$tmp/text" '^group 3: VMware \(3 runs\)$' "VMware: 3 runs"
has "$tmp/text" '^group 2: KVM \(1 run\)$' "KVM: 1 run"
for t in pipe syscall getpid; do
	count_is "$tmp/text" "^$t +1 +lps +1 +3 " 1 "$t: bare-metal row with n=3"
done
want=$(printf '%.0f' "$base_pipe")
has "$tmp/text" "^pipe +1 +lps +1 +3 +$want " "pipe: bare-metal median is the capture's whole-run value ($want)"
count_is "$tmp/text" '^ +3 +3 .* 0\.500 \* +0\.001[0-9]*  3\+3 runs, unpaired, Welch.s t on log run values: different: 2\.00x slower \(95% CI [0-9.]+x slower to 1\.[0-9]+x slower\), q [0-9.e-]+, beyond the min-effect 5%$' 3 \
	"VMware/bare = 0.500, different on the runs (Welch p 0.001), on all three tests, said in words"
count_is "$tmp/text" '^ +2 +1 .* 0\.900 \? +fewer than 3 runs a side: no verdict$' 3 \
	"KVM (one run) = 0.900, no verdict: one machine"
hasnt "$tmp/text" '^warning:' "no comparability warning: same image, build and run parameters"

st=0
"$rep" --format json "$tmp/fleet" >"$tmp/json" 2>"$tmp/err" || st=$?
status_is EXIT_OK "$st" "JSON of the fleet"
v=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
row = next(r for r in d["rows"] if r["test"] == "pipe" and r["pass"] == "1")
g = {c["group"]: c for c in row["groups"]}
print(d["reference"], g["VMware"]["n"], g["VMware"]["ratio"], g["VMware"]["mark"],
      g["bare-metal"]["median"], g["bare-metal"]["min"], g["bare-metal"]["max"],
      g["VMware"]["method"], g["VMware"]["p_value"], g["VMware"]["ratio_gm"],
      g["KVM"]["method"], g["KVM"]["mark"])' "$tmp/json") || true
read -r ref n ratio mark med lo hi method p gm kmethod kmark <<<"$v"
if [ "$ref" = bare-metal ] && [ "$n" = 3 ] && [ "$mark" = '*' ] && [ "$method" = welch-t ] &&
	[ "$kmethod" = too-few-runs ] && [ "$kmark" = '?' ]; then
	ok "JSON: reference, n, mark, method (welch-t; KVM's one run too-few-runs, '?')"
else bad "JSON: reference/n/mark/method: $v"; fi
if python3 -c "import sys; r, m, lo, hi, b = map(float, sys.argv[1:]);
sys.exit(not (abs(r - 0.5) < 1e-6 and abs(m - b) < 0.001 and abs(lo - 0.9 * b) < 0.001 and abs(hi - 1.1 * b) < 0.001))" \
	"$ratio" "$med" "$lo" "$hi" "$base_pipe"; then
	ok "JSON: pipe ratio 0.5, bare median/min/max = 1.0/0.9/1.1 x the capture"
else
	bad "JSON: pipe figures: $v (capture $base_pipe)"
fi
# Welch on the logs: both sides' sd 0.1005, se 0.0821, t = ln 2 / se = 8.44, df 4: p 0.0011
if python3 -c "import sys; p, gm = map(float, sys.argv[1:]);
sys.exit(not (0.0009 < p < 0.0013 and abs(gm - 0.5) < 0.001))" "$p" "$gm"; then
	ok "JSON: VMware's verdict on the runs: Welch p 0.0011, geometric means' ratio 0.5"
else
	bad "JSON: VMware's verdict figures: p $p, ratio_gm $gm"
fi

# Runs that drift together (the header): a fleet whose machines spread 10 % apart and whose
# samples do not spread within a run. Pooled samples call VMware different; runs do not.
mkdir "$tmp/drift"
PYTHONPATH=$top/tests python3 - "$tmp/drift" <<'PY'
import math, sys, zlib
from seal import counts, sealed
d = sys.argv[1]

def run(name, cpuid, level):
    recs = ["BEGIN run=%016x version=t mode=host" % zlib.crc32(name.encode()),
            "INFO hv.cpuid=%s run.suite=quick cpu.online=2" % cpuid,
            "TEST test=t-rate k=1 n=1 copies=1 unit=lps better=higher group=extra title=t clocksource=tsc"]
    vals = [level * (1 + 0.0002 * i) for i in range(10)]
    for i, v in enumerate(vals):
        recs.append("SAMPLE test=t-rate copies=1 i=%d %s steal_ticks=0 batch=1 "
                    "ran_ns=1 cpus=0 migrations=0 nivcsw=0 cpu_ns=1 value=%.3f" % (i, counts(v, "higher"), v))
    med = (vals[4] + vals[5]) / 2
    top = vals[len(vals) // 3:]    # UnixBench's aggregate: the lowest third dropped, geometric mean
    agg = math.exp(sum(map(math.log, top)) / len(top))
    recs.append("RESULT test=t-rate copies=1 unit=lps better=higher value=%.3f samples=10 median=%.3f "
                "min=%.3f max=%.3f ci95_pct=0.1 converged=1" % (agg, med, vals[0], vals[-1]))
    recs.append("END records=%d results=1 fails=0 skips=0 errors=0 status=ok" % len(recs))
    open("%s/%s.log" % (d, name), "w").write(sealed(recs))

for k, level in enumerate((900, 1000, 1100)):
    run("bare%d" % k, "none", level)
for k, level in enumerate((1000, 1100, 1200)):
    run("vmw%d" % k, "VMwareVMware", level)
PY
st=0
"$rep" "$tmp/drift" >"$tmp/drift.txt" 2>&1 || st=$?
status_is EXIT_OK "$st" "fleet of runs that drift together"
has "$tmp/drift.txt" '^ +2 +3 .* 1\.100 ~ +0\.[23][0-9]*  3\+3 runs, unpaired, Welch.s t on log run values: undecided: ' \
	"drift: VMware/bare 1.100 is no difference on the runs (Welch p 0.2-0.4), though its pooled samples differ"
hasnt "$tmp/drift.txt" ' [0-9]\.[0-9]{3} \*' "drift: no group marked different"

st=0
"$rep" --group-by machine "$tmp/fleet" >"$tmp/mach" 2>&1 || st=$?
status_is EXIT_OK "$st" "--group-by machine"
has "$tmp/mach" 'in 2 group\(s\) by machine' "by machine: CPU A and CPU B"
has "$tmp/mach" '^group 1: CPU A, 2 CPUs, - - \(5 runs\)$' "by machine: CPU A holds 5 runs"
st=0
"$rep" --group-by hypervisor,machine "$tmp/fleet" >"$tmp/both" 2>&1 || st=$?
status_is EXIT_OK "$st" "--group-by hypervisor,machine"
has "$tmp/both" 'in 5 group\(s\) by hypervisor,machine; reference group: bare-metal \| CPU A' \
	"by hypervisor and machine: 5 groups, bare metal on CPU A the reference"

# A damaged member: named, left out, status 3; the rest still reported.
head -c 2000 "$tmp/fleet/host1-bare.log" >"$tmp/fleet/host0-cut.log"
st=0
"$rep" "$tmp/fleet" >"$tmp/text2" 2>"$tmp/err2" || st=$?
status_is EXIT_INCOMPLETE "$st" "a log without a complete run makes the status 3"
has "$tmp/err2" 'host0-cut.log: no complete run.*left out' "... it is named on stderr and left out"
has "$tmp/text2" '^fleet: 7 run\(s\)' "... and the seven others are still reported"

st=0
"$rep" --group-by cpu "$tmp/fleet" >/dev/null 2>"$tmp/err3" || st=$?
status_is EXIT_USAGE "$st" "--group-by cpu is a usage error"
st=0
"$rep" --group-by machine "$top/tests/fixtures/logs/native.log" >/dev/null 2>&1 || st=$?
status_is EXIT_USAGE "$st" "--group-by with a log file, not a directory, is a usage error"
st=0
"$rep" --svg "$tmp/x.svg" "$tmp/fleet" >/dev/null 2>&1 || st=$?
status_is EXIT_USAGE "$st" "--svg with a directory is a usage error"
# Whole-group latency tails (issue 35, item 4): a group's p50/p99/p99.9/max are those of
# every operation of its runs, from their RESULT histograms (lat_hist) merged. VMware's first
# run has 15 stalls of 10 ms among 1000 operations of 10 us (1.5 %: its own p99 and p99.9 are
# 10 ms), its other two none: pooled, 15 of 3000 (0.5 %) make p99.9 and max 10 ms while p99
# stays 10 us (the median of the runs' p99.9, 10 us, hides the stall; the largest run's p99,
# 10 ms, overstates it). 10 us falls in the bucket whose top edge is 10111 ns (lib/latency.h:
# 128 ns wide there); a 10 ms max is exact. KVM's second run carries no histogram (an older
# log): its group is not pooled, and says why.
mkdir "$tmp/tails"
PYTHONPATH=$top/tests python3 - "$tmp/tails" <<'PY'
import sys, zlib
from seal import counts, sealed
d = sys.argv[1]

def bucket(v):
    if v < 64:
        return v
    g = v.bit_length() - 1 - 6 + 1
    return g * 64 + (v >> (g - 1)) - 64

def run(name, cpuid, stalls, hist=True):
    ops = {10000: 1000 - stalls, 10000000: stalls}
    b = sorted((bucket(v), n) for v, n in ops.items() if n)
    pairs, prev = [], 0
    for i, n in b:
        pairs += [str(i - prev), str(n)]
        prev = i
    own = lambda q: 10000000 if stalls > (1 - q) * 1000 else 10111
    mx = 10000000 if stalls else 10000
    recs = ["BEGIN run=%016x version=t mode=host" % zlib.crc32(name.encode()),
            "INFO hv.cpuid=%s run.suite=quick cpu.online=2" % cpuid,
            "TEST test=lat-rr k=1 n=1 copies=1 unit=tps better=higher group=extra title=lat clocksource=tsc"]
    for i in range(5):
        recs.append("SAMPLE test=lat-rr copies=1 i=%d %s steal_ticks=0 batch=1 "
                    "ran_ns=1 cpus=0 migrations=0 nivcsw=0 cpu_ns=1 value=%d p50_ns=10111 "
                    "p99_ns=10111 p999_ns=10111 max_ns=10000" % (i, counts(1000 + i, "higher"), 1000 + i))
    recs.append("RESULT test=lat-rr copies=1 unit=tps better=higher value=1002 samples=5 median=1002 "
                "min=1000 max=1004 ci95_pct=0.2 converged=1 p50_ns=10111 p99_ns=%d p999_ns=%d "
                "max_ns=%d%s" % (own(0.99), own(0.999), mx,
                                 " lat_hist=" + ",".join(pairs) if hist else ""))
    recs.append("END records=%d results=1 fails=0 skips=0 errors=0 status=ok" % len(recs))
    open("%s/%s.log" % (d, name), "w").write(sealed(recs))

for k in range(3):
    run("bare%d" % k, "none", 0)
    run("vmw%d" % k, "VMwareVMware", 15 if k == 0 else 0)
run("kvm0", "KVMKVMKVM", 0)
run("kvm1", "KVMKVMKVM", 0, hist=False)
PY
st=0
"$rep" "$tmp/tails" >"$tmp/tails.txt" 2>&1 || st=$?
status_is EXIT_OK "$st" "fleet of latency runs"
has "$tmp/tails.txt" '^lat-rr +1 +1 +3 +10000 +10000 +10000 +10000$' \
	"tails: bare metal's three clean runs pooled (every quantile 10000: a bucket's edge is clipped to the max)"
has "$tmp/tails.txt" '^lat-rr +1 +3 +3 +10111 +10111 +10000000 +10000000$' \
	"tails: VMware's 15 stalls in one of three runs: pooled p99 10 us, p99.9 and max 10 ms"
has "$tmp/tails.txt" '^lat-rr +1 +2 +2  not pooled: 1 of 2 runs lack their histogram' \
	"tails: KVM's run without a histogram: not pooled, said why"
"$rep" --format json "$tmp/tails" 2>/dev/null | python3 -c 'import json, sys
for c in json.load(sys.stdin)["rows"][0]["groups"]:
    l = c.get("latency_ns", {})
    print(c["group"], l.get("from"), l.get("runs"), l.get("p99_ns"), l.get("p999_ns"), l.get("max_ns"))' \
	>"$tmp/tails.json" 2>&1 || true
has "$tmp/tails.json" '^VMware pooled 3 10111(\.0)? 10000000(\.0)? 10000000(\.0)?$' \
	"JSON: VMware's latency_ns pooled over its 3 runs"
has "$tmp/tails.json" '^KVM not-pooled 2 None None None$' "JSON: KVM's not pooled, no figures"

contains "$tmp/tails.txt" "Welch's t on the log whole-run values, answered" \
	"the fleet's legend says what its marks rest on (the runs, Welch's t)"
mkdir "$tmp/empty"
st=0
"$rep" "$tmp/empty" >/dev/null 2>"$tmp/err4" || st=$?
status_is EXIT_USAGE "$st" "an empty directory is a usage error"
has "$tmp/err4" 'holds no log files' "... saying so"
finish
