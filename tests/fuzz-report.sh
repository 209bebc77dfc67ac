#!/usr/bin/env bash
# fuzz-report.sh — a short libFuzzer run of isobench-report's reader (report/fuzz_logread.c)
# for CI: builds the harness with clang (-fsanitize=fuzzer,address,undefined), runs it on a
# copy of tests/fixtures/fuzz-corpus for SECONDS (default 30), and fails on any crash, leak,
# hang (>10 s per input) or sanitizer report. Findings land in $FUZZ_OUT (default a temp dir).
#
#   tests/fuzz-report.sh [SECONDS]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$top/tests/lib.sh"
secs=${1:-30}
if [ -n "${FUZZ_OUT:-}" ]; then
	out=$FUZZ_OUT
else
	use_tmp
	out=$tmp
fi
mkdir -p "$out/corpus" "$out/artifacts"
make -s -C "$top/report" O="$out" fuzz >/dev/null
rc=0
"$out/fuzz_logread" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$out/artifacts/" \
	"$out/corpus" "$top/tests/fixtures/fuzz-corpus" >"$out/fuzz.log" 2>&1 || rc=$?
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/fuzz.log" | grep -o '[0-9]*$' || true)
if [[ $rc -ne 0 ]]; then
	tail -n 40 "$out/fuzz.log"
	fail "fuzz-report: $rc after ${runs:-?} executions; inputs in $out/artifacts"
elif [[ ${runs:-0} -lt 1 ]]; then
	# Status 0 and no executions: the fuzzer did not run (its final stats are missing).
	tail -n 20 "$out/fuzz.log"
	fail "fuzz-report: status 0, but no executions in its final stats"
else
	pass "fuzz-report: $runs executions in ${secs}s ran clean"
fi
finish
