# shellcheck shell=bash
# docs/benchmarks/peer-lib.sh — what the peer-comparison scripts (memory-vs-stream.sh,
# memory-vs-lmbench.sh) share; sourced, not run.
#
# die MSG...: lib/sh/die.sh's: MSG on stderr after the script's name (its file name without
#   .sh), then exit with status $die_status (here 2: bad input, before anything ran; callers
#   write `die_status=1 die ...` for a run that failed or gave no figure).
# skips LOG: LOG's SKIP, FAIL and ERROR records (docs/records.md), decoded (the run prefix and
#   the CRC seal cut, %20 as a space), one per line of at most 240 characters, on stderr;
#   nothing when there is none.

# shellcheck source=../../lib/sh/die.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../lib/sh/die.sh"
die_status=2
skips() {
	grep -aE '@isobench/1 [0-9]+ (SKIP|FAIL|ERROR) ' "$1" |
		sed -E 's/^.*@isobench\/1 [0-9]+ //; s/ \*[0-9a-f]{8}$//; s/%20/ /g' | cut -c1-240 >&2 || true
}
