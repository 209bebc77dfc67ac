# shellcheck shell=bash
# lib/sh/die.sh — die(), the one way every isobench shell script stops on an error: the build
# scripts (build.sh, initramfs/build.sh, image/build-*.sh, cross/sysroot.sh, lava/make-jobs.sh),
# the test scripts (through tests/lib.sh) and docs/benchmarks (through peer-lib.sh). Sourced,
# not run. (kernel-config/build-kernel.sh keeps its own copy: a change there rebuilds the kernel.)
#
# die MSG...: "PREFIX: MSG" on stderr, then exit STATUS. It does not return.
#   PREFIX  $die_prefix when the script sets it (build.sh: "build.sh", initramfs/build.sh:
#           "initramfs"), else the script's file name without .sh ("build-iso", "fresh-root").
#   STATUS  $die_status when set (e.g. `die_status=2 die ...` for one call), else 1.
die() {
	local me=${0##*/}
	echo "${die_prefix:-${me%.sh}}: $*" >&2
	exit "${die_status:-1}"
}
