#!/usr/bin/env bash
# tests/test-journey-nightly.sh — journey (c), the nightly regression gate
# (docs/journeys/nightly.md, issue 48 item 4), replayed here:
#   - the example GitHub Actions workflow and GitLab CI job parse, run the same command
#     (docs/journeys/nightly.sh), ask for KVM, and publish the files that command writes with
#     github-action-benchmark's custom tools;
#   - four "nights" through that command as the workflow gives it, each night's run a log
#     captured elsewhere (ISOBENCH_CAPTURED; tests/history-runs.py, one run a night, the
#     fourth 25 % slower): nights 1-3 say "baseline building: k of 3" with status 0, night 4
#     is judged against the three and fails the job (status 8, EXIT_REGRESSED); each night's
#     json-bench files hold its tests;
#   - the workflow's own boot (ISOBENCH_ACCEL=kvm) on this host: where KVM does not work it
#     fails clearly (qemu/run status 7, EXIT_NOSTART, "--accel kvm: KVM does not work here")
#     and stores nothing; where it works the night boots under KVM;
#   - one real night under TCG, asked for by the flag (ISOBENCH_ACCEL=tcg; one test, one
#     pass): it says so, boots, is stored as QEMU/TCG, and starts a baseline of its own.
# In:  $OUT/isobench-report, $OUT/bzImage + initramfs (the boots), qemu/run, python3 (yaml).
# Out: one line per assertion, then "N passed, M failed, K skipped". Exit 1 on a failure.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/out}
rep=$out/isobench-report
j=$top/docs/journeys
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
use_tmp

# ---- the two CI files ---------------------------------------------------------------------------
# ci_facts: one "KEY VALUE" line per fact of the two CI files the checks below want.
ci_facts() {
	python3 - "$j/github-nightly.yml" "$j/gitlab-ci.yml" <<'PY'
import sys, yaml
gh = yaml.safe_load(open(sys.argv[1]))
gate = gh["jobs"]["gate"]
runs = [s["run"] for s in gate["steps"] if "run" in s]
print("gh-gate", [r for r in runs if "nightly.sh" in r][0])
print("gh-accel", gate["env"]["ISOBENCH_ACCEL"])
for s in gate["steps"]:
    if "github-action-benchmark" in s.get("uses", ""):
        print("gh-bench", s["with"]["tool"], s["with"]["output-file-path"])
gl = yaml.safe_load(open(sys.argv[2]))["isobench-nightly"]
print("gl-gate", [r for r in gl["script"] if "nightly.sh" in r][0])
print("gl-accel", gl["variables"]["ISOBENCH_ACCEL"])
PY
}
if ci_facts >"$tmp/ci" 2>"$tmp/ci.err"; then pass "the workflow and the GitLab job parse as YAML"
else fail "the CI files: $(tail -n 1 "$tmp/ci.err")"; fi
fact() { sed -n "s/^$1 //p" "$tmp/ci"; }
gate=$(fact gh-gate)
if [ "$gate" = "sh docs/journeys/nightly.sh" ] && [ "$(fact gl-gate)" = "$gate" ]; then
	pass "both run the gate as '$gate'"
else fail "the gate's command: GitHub '$gate', GitLab '$(fact gl-gate)'"; fi
if [ "$(fact gh-accel)" = kvm ] && [ "$(fact gl-accel)" = kvm ]; then pass "both ask for KVM (ISOBENCH_ACCEL=kvm)"
else fail "ISOBENCH_ACCEL: GitHub '$(fact gh-accel)', GitLab '$(fact gl-accel)'"; fi
if [ "$(fact gh-bench | sort | tr '\n' ';')" = "customBiggerIsBetter bench-bigger.json;customSmallerIsBetter bench-smaller.json;" ]
then pass "the workflow publishes bench-bigger.json and bench-smaller.json with the custom tools"
else fail "the workflow's benchmark steps: $(fact gh-bench | tr '\n' ';')"; fi

# night N STATUS-NAME [VAR=VALUE...]: the gate's command as the workflow runs it (from the
# checkout's top, the workflow's env with these changes), in $tmp/night$N; its status must be
# the one named; its output in $tmp/night$N/out.
night() {
	local n=$1 want=$2 st=0
	shift 2
	mkdir -p "$tmp/night$n"
	(cd "$top" && env ISOBENCH_MACHINE=runner-1 ISOBENCH_ACCEL=kvm ISOBENCH_REPEAT=1 \
		ISOBENCH_OUT="$out" ISOBENCH_DB="$tmp/history.db" ISOBENCH_LOG="$tmp/night$n/night.log" \
		ISOBENCH_BENCH="$tmp/night$n/bench" "$@" sh -c "$gate") >"$tmp/night$n/out" 2>&1 || st=$?
	status_is "$want" "$st" "night $n: the gate's status"
}

# ---- four nights of logs captured elsewhere ---------------------------------------------------------
f=1.0
for n in 1 2 3 4; do
	case $n in 2) f=1.004 ;; 3) f=0.997 ;; 4) f=1.25 ;; esac
	python3 "$top/tests/history-runs.py" "$tmp/captured$n.log" $(((n - 1) * 24)) "$f"
done
for n in 1 2 3; do
	night "$n" EXIT_OK ISOBENCH_CAPTURED="$tmp/captured$n.log" ISOBENCH_HV=KVM
	contains "$tmp/night$n/out" "baseline building: $((n - 1)) of 3 runs (machine=runner-1,hv=KVM,last=10, besides the LOGs'): no verdict yet" \
		"night $n: baseline building: $((n - 1)) of 3"
	lacks "$tmp/night$n/out" "REGRESSION" "night $n: no verdict"
done
night 4 EXIT_REGRESSED ISOBENCH_CAPTURED="$tmp/captured4.log" ISOBENCH_HV=KVM
has "$tmp/night4/out" '^REGRESSION: t-rate \(copies 1\): ratio 0\.8' "night 4: the 25 % slower rate test regressed"
has "$tmp/night4/out" '^REGRESSION: t-time \(copies 1\): ratio 0\.8' "night 4: the 25 % slower time test regressed"
contains "$tmp/night4/out" "checked 1 run against 3 baseline runs (machine=runner-1,hv=KVM,last=10): 2 regressed" \
	"night 4: judged against the three nights before"
# bench_names FILE: the names in a json-bench file, sorted, joined by ';' (nothing: not a list).
bench_names() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, list) and all({"name", "unit", "value"} <= set(e) for e in d)
print(";".join(sorted(e["name"] for e in d)))' "$1" 2>/dev/null || true
}
for n in 1 4; do
	b=$(bench_names "$tmp/night$n/bench-bigger.json") s=$(bench_names "$tmp/night$n/bench-smaller.json")
	case $b in *t-rate*) pass "night $n: bench-bigger.json holds t-rate ($b)" ;;
	*) fail "night $n: bench-bigger.json: '$b'" ;; esac
	case $s in *t-time*) pass "night $n: bench-smaller.json holds t-time ($s)" ;;
	*) fail "night $n: bench-smaller.json: '$s'" ;; esac
done

# ---- the workflow's boot on this host: KVM or a clear refusal -------------------------------------
if [ ! -f "$out/bzImage" ] || ! command -v qemu-system-x86_64 >/dev/null; then
	skip "the boots: no $out/bzImage or qemu-system-x86_64"
	finish
	exit $?
fi
small=(ISOBENCH_SUITE=quick "ISOBENCH_QEMU_ARGS=--direct --cpus 1 --mem 512M --copies 1 --tests getpid --timeout 300")
before=$("$rep" --db "$tmp/history.db" runs | grep -c . || true)
st=0
(cd "$top" && env ISOBENCH_MACHINE=runner-1 ISOBENCH_ACCEL=kvm ISOBENCH_OUT="$out" ISOBENCH_DB="$tmp/history.db" \
	ISOBENCH_LOG="$tmp/kvm.log" ISOBENCH_BENCH="$tmp/kvm-bench" "${small[@]}" sh -c "$gate") >"$tmp/kvm.out" 2>&1 || st=$?
if [ "$st" -eq "$EXIT_NOSTART" ]; then
	pass "KVM unusable here: the night fails with qemu/run's EXIT_NOSTART (status $st)"
	contains "$tmp/kvm.out" "qemu/run: --accel kvm: KVM does not work here: " "it says KVM does not work here, and why"
	after=$("$rep" --db "$tmp/history.db" runs | grep -c . || true)
	if [ "$after" = "$before" ]; then pass "nothing stored from the refused night ($after lines of runs)"
	else fail "the refused night changed the store: $before -> $after lines of runs"; fi
elif [ "$st" -eq "$EXIT_OK" ] && grep -q 'accel=kvm' "$tmp/kvm.log"; then
	pass "KVM works here: the night booted under KVM"
else
	fail "the KVM night: status $st, want EXIT_NOSTART or a KVM boot: $(tail -n 2 "$tmp/kvm.out" | tr '\n' '|')"
fi

# ---- one real night under TCG, asked for ------------------------------------------------------------
st=0
(cd "$top" && env ISOBENCH_MACHINE=runner-1 ISOBENCH_ACCEL=tcg ISOBENCH_OUT="$out" ISOBENCH_DB="$tmp/tcg.db" \
	ISOBENCH_LOG="$tmp/tcg.log" ISOBENCH_BENCH="$tmp/tcg-bench" "${small[@]}" sh -c "$gate") >"$tmp/tcg.out" 2>&1 || st=$?
status_is EXIT_OK "$st" "a TCG night, asked for: the gate's status"
contains "$tmp/tcg.out" "nightly: TCG asked for: emulation" "the TCG night says it is emulation"
contains "$tmp/tcg.out" "baseline building: 0 of 3 runs (machine=runner-1,hv=QEMU/TCG,last=10" \
	"the TCG night starts a baseline of its own (hv=QEMU/TCG)"
"$rep" --db "$tmp/tcg.db" runs >"$tmp/tcg.runs" 2>&1 || true
has "$tmp/tcg.runs" 'QEMU/TCG' "the store keeps the TCG run as QEMU/TCG"
case $(bench_names "$tmp/tcg-bench-bigger.json") in *getpid*) pass "the TCG night's bench-bigger.json holds getpid" ;;
*) fail "the TCG night's bench-bigger.json: $(head -c 200 "$tmp/tcg-bench-bigger.json")" ;; esac
finish
