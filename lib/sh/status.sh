# shellcheck shell=bash
# lib/sh/status.sh — the exit statuses for the shell scripts, by name: lib/status.h's
# "#define EXIT_<NAME> <N>" lines (the one table of isobench, isobench-report and qemu/run),
# read by qemu/run, tests/lib.sh and report/variability.sh. Sourced, not run.
#
# exit_statuses: prints "NAME N" for each (OK 0, FAILS 1, ...), read from the status.h beside
# this folder; nothing when it cannot be read (each script says so and stops).
exit_statuses() {
	sed -n 's/^#define EXIT_\([A-Z]*\)[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1 \2/p' \
		"$(dirname "${BASH_SOURCE[0]}")/../status.h" 2>/dev/null
}
