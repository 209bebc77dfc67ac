#!/usr/bin/env bash
# tests/test-check.sh — the comparability rule of the results store (issue 51 item 2;
# docs/history.md "Comparability", docs/report.md "Comparability warnings and notes"): check
# names every field its candidate runs differ from the baseline's in (WARN lines: hv, arch,
# mode, kernel, image, machine, tests), does not judge across a hypervisor/accelerator,
# architecture or mode change unless --allow names it (status 2 naming each difference and
# the --allow words), and the store's compare holds a side's runs to the same rule; then every
# usage error of isobench-report's options names the option (and its value).
# Stored fixture logs only, no boot: tests/fixtures/layers/native-r*.log (the runner natively
# on this host, under its KVM) as the baseline; the candidate a QEMU/TCG guest run made of
# native-r5.log (BEGIN and INFO edited, resealed by tests/seal.py) and qemu-tcg.log (a TCG boot).
# In: OUT/isobench-report (or $ISOBENCH_REPORT: an older build shows what it lacks), python3.
# Out: "N passed, M failed".
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
use_tmp
rep=$(report_tool)
fx=$top/tests/fixtures/logs
lx=$top/tests/fixtures/layers
if [ ! -x "$rep" ]; then
	fail "no $rep (./build.sh)"
	finish
	exit 1
fi
# json EXPR FILE: a python expression on the JSON document d of FILE, printed.
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[2])); print(eval(sys.argv[1]))' "$1" "$2"; }

# native-r5.log as a QEMU/TCG guest's run: TCG's CPUID signature, mode init (the image booted),
# the image's kernel and identity, a run id of its own; its values kept. Each edited record is
# sealed again at its own sequence number.
if python3 - "$lx/native-r5.log" "$tmp/tcg.log" "$top/tests" <<'EOF'; then
import sys
sys.path.insert(0, sys.argv[3])
from seal import frame
edits = [("BEGIN", "run=e6c36ddf2d3b111b", "run=e6c36ddf2d3b1117"), ("BEGIN", "mode=host", "mode=init"), ("INFO", "run.mode=host", "run.mode=init"),
         ("INFO", "image.identity=-", "image.identity=5d41402abc4b2a76"),
         ("INFO", "kernel.release=6.18.44-fc-v1300", "kernel.release=6.1.192-isobench"),
         ("INFO", "hv.cpuid=KVMKVMKVM", "hv.cpuid=TCGTCGTCGTCG")]
out, done = [], 0
for line in open(sys.argv[1]).read().split("\n"):
    if line.startswith("@isobench/1 "):
        _, seq, body = line.rsplit(" *", 1)[0].split(" ", 2)
        words = body.split(" ")
        for kind, a, b in edits:
            if words[0] == kind and a in words:
                words[words.index(a)] = b
                done += 1
        if words != body.split(" "):
            line = frame(int(seq), " ".join(words)).rstrip("\n")
    out.append(line)
open(sys.argv[2], "w").write("\n".join(out))
sys.exit(0 if done == len(edits) else 1)
EOF
	pass "native-r5.log made a TCG guest's run (6 fields edited, resealed)"
else fail "native-r5.log made a TCG guest's run"; fi
expect_status EXIT_OK "the TCG-made run reads as a complete run" -- "$rep" --check "$tmp/tcg.log"

db=$tmp/lab.db
expect_status EXIT_OK "the native baseline stored (four runs, --machine lab1)" -- \
	"$rep" --db "$db" add --machine lab1 "$lx"/native-r[1-4].log

# ---- 1. check across a hypervisor and mode change: refused, every difference named ----
expect_status EXIT_USAGE "check: a TCG guest run against the native baseline is refused" -- \
	"$rep" --db "$db" check --baseline machine=lab1 "$tmp/tcg.log"
cp "$tmp/stdout" "$tmp/refused.out"
cp "$tmp/stderr" "$tmp/refused.err"
contains "$tmp/refused.out" "WARN: not comparable: hv differs (baseline: KVM; candidate: QEMU/TCG)" \
	"WARN: the hypervisor/accelerator, with both values"
contains "$tmp/refused.out" "WARN: not comparable: run.mode differs (baseline: host; candidate: init)" \
	"WARN: the mode"
contains "$tmp/refused.out" "WARN: not comparable: kernel.release differs (baseline: 6.18.44-fc-v1300; candidate: 6.1.192-isobench)" \
	"WARN: the kernel"
contains "$tmp/refused.out" "WARN: not comparable: image.identity differs (baseline: -; candidate: 5d41402abc4b2a76)" \
	"WARN: the image"
count_is "$tmp/refused.out" '^WARN: ' 4 "... and nothing else differs (machine and test set are the same)"
has "$tmp/refused.err" '^isobench-report: check: no verdict: .* differ in hv, mode \(the WARNs name the values\).* --allow hv,mode judges them anyway' \
	"the refusal names each difference and the --allow words that admit it"
count_is "$tmp/refused.out" '^(REGRESSION|equivalent|undecided|improved|no verdict|isobench-report: checked)' 0 \
	"no verdict given across them"

# ---- 2. allowed: --allow names what may differ ----
expect_status EXIT_USAGE "check --allow hv: the mode still differs" -- \
	"$rep" --db "$db" check --baseline machine=lab1 --allow hv "$tmp/tcg.log"
has "$tmp/stderr" 'differ in mode \(.*--allow mode judges' "... only mode named, with its word"
expect_status EXIT_OK "check --allow hv,mode: judged" -- \
	"$rep" --db "$db" check --baseline machine=lab1 --allow hv,mode --verbose "$tmp/tcg.log"
count_is "$tmp/stdout" '^WARN: not comparable: (hv|run\.mode|kernel\.release|image\.identity) differs' 4 \
	"... the four differences still named"
count_is "$tmp/stdout" '^(equivalent|undecided|improved): (execl|spawn) \(copies 1\): ratio [0-9.]+ .*4\+1 runs, prediction-t' 2 \
	"... a verdict per test, on the four baseline runs"
contains "$tmp/stdout" "isobench-report: checked 1 run against 4 baseline runs (machine=lab1): 0 regressed" \
	"... the counts line"
contains "$tmp/stdout" "of 2 tests, 4 comparability warnings" "... which counts the warnings"
expect_status EXIT_OK "check --allow hv --allow mode (the option twice): judged" -- \
	"$rep" --db "$db" check --baseline machine=lab1 --allow hv --allow mode "$tmp/tcg.log"
expect_status EXIT_OK "check --format json --allow mode,hv: judged" -- \
	"$rep" --db "$db" check --format json --baseline machine=lab1 --allow mode,hv "$tmp/tcg.log"
equals_json=$(json '"|".join(w.split(" (")[0] for w in d["warnings"])' "$tmp/stdout" 2>&1)
if [ "$equals_json" = "not comparable: image.identity differs|not comparable: run.mode differs|not comparable: hv differs|not comparable: kernel.release differs" ]; then
	pass "JSON: the document's warnings, in the rule's order"
else fail "JSON: the document's warnings: got '$equals_json'"; fi
contains "$tmp/stderr" "isobench-report: warning: not comparable: hv differs (baseline: KVM; candidate: QEMU/TCG)" \
	"JSON: the warnings on stderr too"

# ---- 3. a run like the baseline's: no warning, judged ----
expect_status EXIT_OK "check: native-r5.log itself against the native baseline" -- \
	"$rep" --db "$db" check --baseline machine=lab1 "$lx/native-r5.log"
count_is "$tmp/stdout" '^WARN: ' 0 "... no WARN"
contains "$tmp/stdout" "of 2 tests, 0 comparability warnings"

# ---- 4. a real TCG boot of other tests: every field named ----
expect_status EXIT_USAGE "check: qemu-tcg.log (a TCG boot) against the native baseline" -- \
	"$rep" --db "$db" check --baseline machine=lab1 "$fx/qemu-tcg.log"
contains "$tmp/stdout" "WARN: not comparable: run.tests differs (baseline: execl,spawn; candidate: syscall,pipe,nope)" \
	"WARN: the test set"
contains "$tmp/stdout" "WARN: not comparable: machine differs (baseline: Intel(R) Xeon(R) Processor, 2 CPUs, - -; candidate: QEMU TCG CPU version 2.5+, 2 CPUs, QEMU Standard PC (i440FX + PIIX, 1996))" \
	"WARN: the machine (CPU, CPUs, DMI)"
contains "$tmp/stdout" "WARN: not comparable: build.version differs (baseline: f845d66-dirty; candidate: e331784)" \
	"WARN: the build"
has "$tmp/stdout" '^WARN: not comparable: kernel\.cmdline \(apart from volatile words\) differs \(only in baseline: ' \
	"WARN: the rest of the rule too (the command line, baseline's first run against the candidate's)"
has "$tmp/stderr" 'differ in hv, mode \(.*--allow hv,mode' "the refusal names hv and mode"

# ---- 5. a baseline that mixes hypervisors: never judged as one ----
expect_status EXIT_OK "the TCG-made run stored under lab1 too" -- \
	"$rep" --db "$db" add --machine lab1 "$tmp/tcg.log"
expect_status EXIT_USAGE "check: a native run against a baseline of KVM and TCG runs is refused" -- \
	"$rep" --db "$db" check --baseline machine=lab1 "$lx/native-r5.log"
contains "$tmp/stdout" "WARN: not comparable: hv differs (baseline: KVM in 4 runs, QEMU/TCG in 1; candidate: KVM)" \
	"WARN: a baseline of two hypervisors says each with its runs"
expect_status EXIT_OK "check --baseline machine=lab1,hv=KVM: the same run judged against the KVM runs" -- \
	"$rep" --db "$db" check --baseline machine=lab1,hv=KVM "$lx/native-r5.log"
count_is "$tmp/stdout" '^WARN: ' 0 "... without a warning"

# ---- 6. the store's compare: a side's runs are held to the rule too ----
expect_status EXIT_OK "the UML runs stored (--machine uml)" -- \
	"$rep" --db "$db" add --machine uml "$lx"/uml-r[1-3].log
"$rep" --db "$db" compare machine=lab1 machine=uml >"$tmp/cmp.out" 2>&1 || true	# its warnings are checked
has "$tmp/cmp.out" '^warning: not comparable: hv differs \(machine=lab1 run 1: KVM; machine=lab1 run [0-9]: QEMU/TCG\)$' \
	"compare: a side pooling KVM and TCG runs is warned of"
has "$tmp/cmp.out" '^warning: not comparable: run\.mode differs \(machine=lab1 run 1: host; machine=lab1 run [0-9]: init\)$' \
	"compare: ... and its mode"
"$rep" --db "$db" compare machine=lab1,hv=KVM machine=uml >"$tmp/cmp2.out" 2>&1 || true
count_is "$tmp/cmp2.out" '^warning: not comparable: (hv|run\.mode|kernel\.release|machine) differs' 0 \
	"compare: sides that differ in hypervisor, kernel and machine (the comparison's subject), each alike within: no such warning"
# The logs' comparison: the same rule (one owner, report/compare.c).
"$rep" --label a,a,a,b,b,b "$lx/native-r1.log" "$lx/native-r2.log" "$tmp/tcg.log" \
	"$lx"/uml-r[1-3].log >"$tmp/logs.out" 2>&1 || true
has "$tmp/logs.out" '^warning: not comparable: hv differs \(a run 1: KVM; a run 3: QEMU/TCG\)$' \
	"the logs' comparison: the same warning for a side of --label a pooling KVM and TCG"

# A directory of logs (a fleet): the rule's rows between sides, run.mode among them.
mkdir -p "$tmp/fleet"
cp "$lx/native-r1.log" "$lx/native-r2.log" "$tmp/tcg.log" "$tmp/fleet/"
"$rep" "$tmp/fleet" >"$tmp/fleet.out" 2>&1
has "$tmp/fleet.out" 'runs differ in run\.mode \(2 values\): not like for like' \
	"a fleet of native and TCG-made runs: the mode named, by the same rule"
count_is "$tmp/fleet.out" 'runs differ in (hv|kernel\.release|machine) ' 0 \
	"... but not the hypervisor, kernel or machine its groups are made of"

# ---- 6b. a selector of several terms is quoted whole, never cut at its first ',KEY=' ----
expect_status EXIT_OK "check --baseline machine=lab1,last=2: too few runs, no verdict yet" -- \
	"$rep" --db "$db" check --baseline machine=lab1,last=2 "$lx/native-r5.log"
has "$tmp/stdout" '^isobench-report: baseline building: 2 of 3 runs \(machine=lab1,last=2, besides' \
	"... the line quotes the whole selector (machine=lab1 alone selects 5)"
expect_status EXIT_OK "check --baseline machine=lab1,hv=KVM,last=3: judged" -- \
	"$rep" --db "$db" check --baseline machine=lab1,hv=KVM,last=3 "$lx/native-r5.log"
contains "$tmp/stdout" "against 3 baseline runs (machine=lab1,hv=KVM,last=3):" \
	"... the counts line quotes the whole selector"
"$rep" --db "$db" compare machine=lab1,hv=KVM machine=lab1,hv=TCG >"$tmp/sel.out" 2>&1
has "$tmp/sel.out" '^side 1: machine=lab1,hv=KVM, 4 run' "compare: side 1 named by its whole selector"
has "$tmp/sel.out" '^side 2: machine=lab1,hv=TCG, 1 run' \
	"compare: side 2 too (not 'machine=lab1 #2', a name that hides which runs)"
contains "$tmp/sel.out" "compared 4 runs (machine=lab1,hv=KVM) with 1 (machine=lab1,hv=TCG)" \
	"compare: the counts line quotes both selectors whole"

# ---- 6c. a LOG given twice is one candidate run, not replicates (as comparing logs) ----
expect_status EXIT_OK "check: native-r5.log given three times" -- \
	"$rep" --db "$db" check --baseline machine=lab1,hv=KVM --verbose "$lx/native-r5.log" \
	"$lx/native-r5.log" "$lx/native-r5.log"
count_is "$tmp/stderr" '^isobench-report: .*native-r5\.log: run e6c36ddf2d3b111b is already among the LOGs: counted once$' 2 \
	"... each repeat named and counted once"
count_is "$tmp/stdout" '^undecided: (execl|spawn) \(copies 1\): .* 4\+1 runs, prediction-t' 2 \
	"... judged as the one run it is (not 4+3, Welch's t on three equal values)"
contains "$tmp/stdout" "checked 1 run against 4 baseline runs" "... the counts line says one run"
cat "$lx/native-r5.log" "$lx/native-r5.log" >"$tmp/twice.log"
expect_status EXIT_OK "check: a LOG holding the same run twice" -- \
	"$rep" --db "$db" check --baseline machine=lab1,hv=KVM "$tmp/twice.log"
contains "$tmp/stdout" "checked 1 run against 4 baseline runs" "... counted once too"

# ---- 7. usage errors name the option (and its value) ----
# usage WHAT WANT ARGS...: isobench-report ARGS is status 2 and its stderr holds WANT.
usage() {
	local what=$1 want=$2
	shift 2
	expect_status EXIT_USAGE "$what" -- "$rep" "$@"
	contains "$tmp/stderr" "$want" "$what: names $want"
}
expect_status EXIT_OK "--db FILE --help" -- "$rep" --db "$db" --help
has "$tmp/stdout" '^  check --baseline SELECTOR \[--allow FIELDS\] LOG\.\.\.$' "--help: check takes --allow"
has "$tmp/stdout" '^ +hv,arch,mode \(hv: the hypervisor or accelerator' "--help: the words --allow takes"
usage "check --allow kernel (never refused)" "--allow kernel: a difference in kernel is never refused" \
	--db "$db" check --baseline machine=lab1 --allow kernel "$tmp/tcg.log"
usage "check --allow nope" "--allow nope: no such field; --allow takes hv,arch,mode" \
	--db "$db" check --baseline machine=lab1 --allow nope "$tmp/tcg.log"
usage "check --allow ," "--allow wants hv,arch,mode" --db "$db" check --baseline all --allow , "$tmp/tcg.log"
# An empty word in the list is a mistake of the same kind as --label a,,b: named, never skipped.
usage "check --allow hv, (an empty word at the end)" "--allow 'hv,': an empty field" \
	--db "$db" check --baseline machine=lab1 --allow hv, "$tmp/tcg.log"
usage "check --allow ,hv,mode (an empty word first)" "--allow ',hv,mode': an empty field" \
	--db "$db" check --baseline machine=lab1 --allow ,hv,mode "$tmp/tcg.log"
usage "check --allow hv,,mode" "--allow 'hv,,mode': an empty field" \
	--db "$db" check --baseline machine=lab1 --allow hv,,mode "$tmp/tcg.log"
usage "check --machine" "--machine goes with add or trend, not check" \
	--db "$db" check --machine lab2 --baseline machine=lab1 "$tmp/tcg.log"
usage "runs --baseline" "--baseline goes with check, not runs" --db "$db" runs --baseline all
usage "runs --allow" "--allow goes with check, not runs" --db "$db" runs --allow hv
usage "add --verbose" "--verbose goes with check, not add" --db "$db" add --verbose "$tmp/tcg.log"
usage "compare --test" "--test goes with trend, not compare" --db "$db" compare --test x all all
usage "check --format csv" "--format csv: check writes text or json" \
	--db "$db" check --format csv --baseline machine=lab1 "$tmp/tcg.log"
usage "--db --format xml" "--format xml" --db "$db" runs --format xml
usage "check --baseline with a bad term" "--baseline: selector term 'foo=1'" \
	--db "$db" check --baseline foo=1 "$tmp/tcg.log"
usage "runs with a bad term" "runs: selector term 'last=0'" --db "$db" runs last=0
# strtoll(3) took these; a count is digits only (lib/num.h)
usage "runs last=+3" "runs: selector term 'last=+3'" --db "$db" runs last=+3
usage "runs last=' 3'" "runs: selector term 'last= 3'" --db "$db" runs "last= 3"
usage "--db --noise-floor 0x10" "--noise-floor" --db "$db" runs --noise-floor 0x10
usage "--db --noise-floor" "--noise-floor" --db "$db" runs --noise-floor -3
usage "--db --min-effect" "--min-effect" --db "$db" runs --min-effect 0
usage "--db unknown option" "--bogus" --db "$db" runs --bogus
usage "--db option without its value" "'--baseline'" --db "$db" check --baseline
usage "--format xml" "--format xml" --format xml "$fx/native.log"
usage "--run x" "--run x" --run x "$fx/native.log"
usage "--idle x" "--idle x" --follow --idle x "$fx/native.log"
usage "--idle without --follow" "--idle goes with --follow" --idle 3 "$fx/native.log"
usage "--pid without --follow" "--pid goes with --follow" --pid 1 "$fx/native.log"
usage "--label a,,b" "--label a,,b" --label a,,b "$fx/native.log" "$fx/native.log"
usage "--label count" "--label gives" --label a "$fx/native.log" "$fx/native.log"
usage "--killed without --boot" "--killed goes with --boot" --killed "$fx/native.log"
usage "--group-by nope" "--group-by nope" --group-by nope "$lx"
usage "--format csv with a DIR" "--format csv: a directory of logs" --format csv "$lx"
usage "--mem-svg with a DIR" "--mem-svg takes LOG files, not a DIR" --mem-svg "$tmp/m.svg" "$lx"
usage "--min-effect x" "--min-effect" --min-effect x "$fx/native.log"
usage "--noise-floor -3" "--noise-floor" --noise-floor -3 "$fx/native.log"
# --noise-floor PCT|FILE: a directory is no file of floors (it was read as an empty one: every
# test kept its default floor, status 0); a number in a form num_dbl refuses names the number
# form it wants, not only "cannot be read" (as if a file had been meant).
usage "--noise-floor DIR" "--noise-floor $tmp: cannot be read: Is a directory" \
	--noise-floor "$tmp" "$fx/native.log" "$fx/native.log"
usage "--noise-floor 5. (strtod took it)" \
	"--noise-floor 5.: no percentage (0 to 10000: digits, optionally '.' and digits) and no file of that name can be opened: No such file or directory" \
	--noise-floor 5. "$fx/native.log" "$fx/native.log"
usage "unknown option" "'--bogus'" --bogus "$fx/native.log"
usage "option without its value" "'--label'" "$fx/native.log" --label

finish
