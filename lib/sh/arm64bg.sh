# shellcheck shell=bash
# lib/sh/arm64bg.sh — the arm64 image built in the background while the x86 suites run
# (tests/run's "the arm64 image"): when (arm64_bg_wanted) and how (arm64_bg_start), once for
# `./build.sh test`, which starts it before the test packages install, and tests/run, which
# adopts that build or starts its own. Sourced, not run.
#
# arm64_bg_wanted [SUITE...]: status 0 when ISOBENCH_ARM64_BG is 1 (the default) and the
# suites to run include arm64 but do not start with it (no SUITE: every suite, arm64 last);
# 1 otherwise (arm64 first: nothing to overlap; no arm64: nothing to build for).
arm64_bg_wanted() {
	[ "${ISOBENCH_ARM64_BG:-1}" = 1 ] || return 1
	[ $# -gt 0 ] || return 0
	[ "$1" != arm64 ] && [[ " $* " == *" arm64 "* ]]
}

# arm64_bg_start OUT: starts `ARCH=arm64 ./build.sh` (this checkout's) in the background in
# its own process group (setsid: tests/run stops and resumes it as one, and an interrupted run
# takes it down), niced 19 and in the idle I/O class. Exports ISOBENCH_ARM64_BG_PID (its
# process), _LOG (OUT/arm64-background.log, its output), _STATUS
# (OUT/arm64-background.status, where it writes its exit status when it ends) and _T0 (its
# start, epoch seconds): what tests/run reads to adopt it. Status 1 when OUT cannot be made.
arm64_bg_start() {
	local build
	build=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build.sh
	mkdir -p "$1" || return 1
	export ISOBENCH_ARM64_BG_LOG=$1/arm64-background.log ISOBENCH_ARM64_BG_STATUS=$1/arm64-background.status
	export ISOBENCH_ARM64_BG_T0=$EPOCHSECONDS
	rm -f "$ISOBENCH_ARM64_BG_STATUS"
	# shellcheck disable=SC2016 # the wrapper's own $1, $2 and $3
	ARCH=arm64 setsid bash -c 'st=0; nice -n 19 ionice -c 3 "$1" >"$2" 2>&1 </dev/null || st=$?
		echo "$st" >"$3"' _ "$build" "$ISOBENCH_ARM64_BG_LOG" "$ISOBENCH_ARM64_BG_STATUS" &
	export ISOBENCH_ARM64_BG_PID=$!
}
