#!/usr/bin/env bash
# tests/test-lava.sh — isobench's LAVA job runs under Debian's lava-dispatcher, and the test
# cases LAVA records are the report's results.
#
# In:  OUT/bzImage, OUT/initramfs.cpio.gz, OUT/IDENTITY, OUT/isobench-report, OUT/lava (OUT
#      defaults to out/), image/build-iso.sh, image/build-netboot.sh, lava/make-jobs.sh,
#      lava/devices/*.yaml, lava-run (Debian package lava-dispatcher), python3 with PyYAML
#      (a lava-dispatcher dependency), qemu-system-x86_64. TCG always.
# Out: one line per assertion, then "N passed, M failed". The jobs' output stays in
#      results/lava-qemu/ and results/lava-qemu-error/ (lava-run's log as lava.log, the serial
#      console rebuilt from it as serial.log, the test cases as lava-results.tsv, the report's
#      JSON as report.json).
# Errors: exit 1 if any check failed.
#
# 1. Both jobs ./build.sh wrote (out/lava) pass lava-run --validate on a matching device
#    (the x86 one on lava/devices/x86-ipxe-example.yaml: validated, not booted: no bare metal
#    here), and carry the same monitors (lava/monitors.yaml) and the menu's default command line.
# 2. The qemu job, made from a throw-away ISO whose default entry runs a short suite (quick,
#    syscall and pipe, 1 copy), runs with lava-run on lava/devices/qemu-tcg-local.yaml: the
#    job must finish, LAVA must record suite "isobench-complete" case "end" = pass, and its
#    "isobench" test cases must equal, one for one, what `isobench-report --format json`
#    reports for the serial log LAVA captured: name (as LAVA spells "TEST copies=N"), value,
#    unit. A second run with an unknown parameter (an ERROR record) must make
#    isobench-complete/end fail and still give its RESULT as a test case.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp
res=$top/results/lava-qemu
extra="isobench.suite=quick isobench.tests=syscall,pipe isobench.copies=1"

for f in bzImage initramfs.cpio.gz IDENTITY isobench-report lava/isobench-qemu.yaml lava/isobench-x86-ipxe.yaml; do
	[ -e "$out/$f" ] || { bad "no $out/$f (run ./build.sh first)"; finish; exit 1; }
done
command -v lava-run >/dev/null || { bad "lava-run not found (apt-get install lava-dispatcher)"; finish; exit 1; }
id=$(head -n 1 "$out/IDENTITY")

# ---- 1. the jobs ./build.sh made -------------------------------------------------------------
for job in qemu:qemu-tcg-local x86-ipxe:x86-ipxe-example; do
	j=${job%%:*} dev=${job#*:} st=0
	lava-run --validate --job-id 1 --output-dir "$tmp/v-$j" --device "$top/lava/devices/$dev.yaml" \
		"$out/lava/isobench-$j.yaml" >"$tmp/v-$j.log" 2>&1 || st=$?
	if [ "$st" -eq 0 ]; then ok "out/lava/isobench-$j.yaml: lava-run --validate on $dev"
	else bad "out/lava/isobench-$j.yaml: lava-run --validate status $st: $(grep -m3 -i 'error\|invalid' "$tmp/v-$j.log" | tr '\n' ' ' | cut -c1-400)"; fi
done
py_check=$(/usr/bin/python3 - "$out/lava" "$out/netboot/pxelinux.cfg/default" "$top/lava/monitors.yaml" <<'EOF'
import re, sys, yaml
d, cfg, mon = sys.argv[1:]
q = yaml.safe_load(open(d + "/isobench-qemu.yaml"))
x = yaml.safe_load(open(d + "/isobench-x86-ipxe.yaml"))
want = yaml.safe_load(open(mon))
mq = [a["test"]["monitors"] for a in q["actions"] if "test" in a]
mx = [a["test"]["monitors"] for a in x["actions"] if "test" in a]
print("monitors", "ok" if mq == [want] and mx == [want] else "differ")
lines = open(cfg).read().splitlines()
default = next(l.split()[1] for l in lines if l.startswith("DEFAULT "))
label, app = None, None
for l in lines:
    if l.startswith("LABEL "): label = l.split()[1]
    if label == default and l.strip().startswith("APPEND "):
        app = l.strip()[len("APPEND "):]; break
kq = next(a["deploy"]["images"]["kernel"]["image_arg"] for a in q["actions"] if "deploy" in a)
print("qemu-append", "ok" if ('-append "%s panic=-1"' % app) in kq else "differ: " + kq)
words = [w for w in app.split() if not w.startswith("console=ttyS")]
print("x86-append", "ok" if x["context"]["extra_kernel_args"] == " ".join(words) else "differ: " + x["context"]["extra_kernel_args"])
EOF
) || true
for k in monitors qemu-append x86-append; do
	v=$(sed -n "s/^$k //p" <<<"$py_check")
	if [ "$v" = ok ]; then ok "out/lava: $k as the template/menu says"; else bad "out/lava: $k: ${v:-no answer}"; fi
done

# ---- 2. the qemu job, run by lava-run ---------------------------------------------------------
# lava_job DIR EXTRA: make the jobs from a throw-away ISO whose default entry adds EXTRA, run the
# qemu one with lava-run; DIR gets lava.log, serial.log (the console LAVA captured: its
# "target" and "feedback" messages, in order) and lava-results.tsv (definition, case, result, measurement,
# units of every test case LAVA recorded).
lava_job() {
	local dir=$1 x=$2 st=0 t0
	rm -rf "$dir" "$tmp/lava-out" "$tmp/nb" "$tmp/jobs"
	mkdir -p "$dir"
	ISOBENCH_MENU_TIMEOUT=1 "$top/image/build-iso.sh" "$tmp/t.iso" "$out/bzImage" "$out/initramfs.cpio.gz" "$id" "$x"
	"$top/image/build-netboot.sh" "$tmp/nb" "$tmp/t.iso"
	"$top/lava/make-jobs.sh" "$tmp/jobs" "$tmp/nb"
	# The test action's own timeout: the short run takes well under a minute under TCG.
	sed -i 's/^      minutes: 45$/      minutes: 4/' "$tmp/jobs/isobench-qemu.yaml"
	t0=$(date +%s)
	timeout -k 10 600 lava-run --job-id 1 --output-dir "$tmp/lava-out" --device "$top/lava/devices/qemu-tcg-local.yaml" \
		"$tmp/jobs/isobench-qemu.yaml" >"$dir/lava.log" 2>&1 || st=$?
	echo "lava-run took $(($(date +%s) - t0)) s"
	status_is EXIT_OK "$st" "lava-run ran the qemu job ($x)"
	/usr/bin/python3 - "$dir/lava.log" "$dir/serial.log" "$dir/lava-results.tsv" <<'EOF'
import sys, yaml
log, serial, tsv = sys.argv[1:]
s = open(serial, "w")
t = open(tsv, "w")
for line in open(log, errors="replace"):
    # lava-run logs one YAML flow mapping a line ({"dt", "lvl", "msg"}; JSON but for tags such
    # as a measurement's '! "52112.061"'); a server's job log holds the same as a YAML list.
    line = line.strip()
    if line.startswith("- {"):
        line = line[2:]
    if not line.startswith("{"):
        continue
    try:
        e = yaml.safe_load(line)
    except yaml.YAMLError:
        continue
    if not isinstance(e, dict):
        continue
    # "target": console lines while a test action runs; "feedback": the ones LAVA reads after
    # it (the monitor stops at END's first bytes, so END itself may arrive as feedback).
    if e.get("lvl") in ("target", "feedback"):
        s.write(str(e["msg"]) + "\n")
    elif e.get("lvl") == "results":
        m = e["msg"]
        t.write("\t".join(str(m.get(k, "")) for k in ("definition", "case", "result", "measurement", "units")) + "\n")
EOF
}

lava_job "$res" "$extra"
has "$res/lava-results.tsv" $'^lava\tjob\tpass\t' "LAVA: the job passed"
has "$res/lava-results.tsv" $'^isobench-complete\tend\tpass\t' "LAVA: isobench-complete/end is pass (END, no FAIL/ERROR)"
count_is "$res/lava-results.tsv" $'^isobench\t' 2 "LAVA: one isobench test case per RESULT record (syscall, pipe)"
rst=0
"$out/isobench-report" --format json "$res/serial.log" >"$res/report.json" 2>"$tmp/report.err" || rst=$?
status_is EXIT_OK "$rst" "isobench-report: the serial log LAVA captured is one complete, valid run"
cmp=$(/usr/bin/python3 - "$res/report.json" "$res/lava-results.tsv" <<'EOF'
import json, re, sys
rep = json.load(open(sys.argv[1]))
want = {}
for run in rep["runs"]:
    for t in run["tests"]:
        if t.get("status") == "ok" and t.get("value") is not None:
            # LAVA's test case name: the monitor's "TEST copies=N", lowercased, non-word runs -> "_".
            name = re.sub(r"\W+", "_", ("%s copies=%d" % (t["test"], t["copies"])).lower())
            want[name] = (float(t["value"]), t["unit"])
got = {}
for line in open(sys.argv[2]):
    d, case, result, meas, units = line.rstrip("\n").split("\t")
    if d == "isobench":
        got[case] = (float(meas), units)
print("report:", sorted(want.items()))
print("lava:  ", sorted(got.items()))
print("EQUAL" if want == got and want else "DIFFER")
EOF
) || true
echo "$cmp"
if [ "$(tail -n 1 <<<"$cmp")" = EQUAL ]; then
	ok "LAVA's test cases equal isobench-report --format json (names, values, units)"
else
	bad "LAVA's test cases differ from isobench-report's"
fi

# A run holding an ERROR record (an unknown parameter) completes, and LAVA says so: fail.
lava_job "$res-error" "isobench.suite=quick isobench.tests=syscall isobench.copies=1 isobench.nosuchkey=1"
has "$res-error/lava-results.tsv" $'^isobench-complete\tend\tfail\t' "LAVA: an ERROR record makes isobench-complete/end fail"
count_is "$res-error/lava-results.tsv" $'^isobench\t' 1 "LAVA: ... and the run's RESULT is still a test case"
finish
