# shellcheck shell=bash
# lib/sh/arm64bg.sh — arm64_bg_wanted, the one rule for when the arm64 image is built in the
# background while the x86 suites run (tests/run's "the arm64 image"): `./build.sh test`
# starts it before the test packages install, tests/run starts it itself otherwise. Sourced,
# not run.
#
# arm64_bg_wanted [SUITE...]: status 0 when ISOBENCH_ARM64_BG is 1 (the default) and the
# suites to run include arm64 but do not start with it (no SUITE: every suite, arm64 last);
# 1 otherwise (arm64 first: nothing to overlap; no arm64: nothing to build for).
arm64_bg_wanted() {
	[ "${ISOBENCH_ARM64_BG:-1}" = 1 ] || return 1
	[ $# -gt 0 ] || return 0
	[ "$1" != arm64 ] && [[ " $* " == *" arm64 "* ]]
}
