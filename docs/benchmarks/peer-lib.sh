# shellcheck shell=bash
# docs/benchmarks/peer-lib.sh — what the peer-comparison scripts (memory-vs-stream.sh,
# memory-vs-lmbench.sh) share; sourced, not run.
#
# die MSG...: MSG on stderr after the script's name (its file name without .sh), then exit
#   with status $st (default 2: bad input, before anything ran; callers set st=1 for a run
#   that failed or gave no figure).
# skips LOG: LOG's SKIP, FAIL and ERROR records (docs/records.md), decoded (the run prefix and
#   the CRC seal cut, %20 as a space), one per line of at most 240 characters, on stderr;
#   nothing when there is none.

die() { local me=${0##*/}; echo "${me%.sh}: $*" >&2; exit "${st:-2}"; }
skips() {
	grep -aE '@isobench/1 [0-9]+ (SKIP|FAIL|ERROR) ' "$1" |
		sed -E 's/^.*@isobench\/1 [0-9]+ //; s/ \*[0-9a-f]{8}$//; s/%20/ /g' | cut -c1-240 >&2 || true
}
