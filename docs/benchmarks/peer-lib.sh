# shellcheck shell=bash
# docs/benchmarks/peer-lib.sh — what the peer-comparison scripts share; sourced, not run.
# die and skips: memory-vs-stream.sh, memory-vs-lmbench.sh, network-vs-peers.sh (die also
# disk-vs-fio.sh); paired_ratio: those three, disk-vs-fio.sh, fidelity-unixbench.sh,
# before-after.sh; paired_cells: memory-vs-stream.sh, memory-vs-lmbench.sh, network-vs-peers.sh,
# before-after.sh; paired_cell: the first three; peer_limit: peers.sh, disk-vs-fio.sh,
# fidelity-unixbench.sh.
#
# die MSG...: lib/sh/die.sh's: MSG on stderr after the script's name (its file name without
#   .sh), then exit with status $die_status (here 2: bad input, before anything ran; callers
#   write `die_status=1 die ...` for a run that failed or gave no figure).
# skips LOG: LOG's SKIP, FAIL and ERROR records (docs/records.md), decoded (the run prefix and
#   the CRC seal cut, %20 as a space), one per line of at most 240 characters, on stderr;
#   nothing when there is none.
# paired_ratio: the ratio of two programs measured in turn, as a drifting host leaves it: per
#   round, one side's figure over the other's from the same round, then the median over the
#   rounds. (The ratio of each side's median over the rounds pairs figures taken minutes
#   apart: on this project's host, whose bandwidth moved 20% between consecutive minutes, one
#   run's 1-copy triad read 1.158 that way and 1.053 paired; docs/benchmarks/memory.md.)
#   In: lines "KEY NUM DEN" on stdin, one per round (NUM and DEN the two sides' figures of
#   KEY in that round, a decimal number as a person or printf may write it: 5, +5, 5., .5, 5e3; a
#   figure <= 0, not such a number, such as nan, inf, - or -5, or beyond a double (1e999,
#   which awk reads as inf) leaves the round out: peer_num, the one rule of a figure;
#   blank lines are skipped and a CR is no part of a figure: a saved file with CRLF ends).
#   Out: per KEY, in the order first seen, "KEY MEDIAN MIN MAX N": the median, lowest and
#   highest NUM/DEN over the N rounds that had both figures; "KEY - - - 0" when none had.
#   6 decimals, unrounded for what a caller judges (disk-vs-fio's within 15%, fidelity's
#   --verdict: 1.1504 is outside 15%, its 3-decimal 1.150 would not be); each caller rounds
#   for its table.
# paired_cells DECIMALS: paired_ratio's lines (stdin) as a table shows them, tab-separated:
#   "KEY<TAB>MEDIAN<TAB>LOWEST-HIGHEST (N)", the ratios rounded to DECIMALS, N the rounds
#   paired (the form of disk-vs-fio.sh's table: "triad/1<TAB>1.053<TAB>0.996-1.160 (5)");
#   "KEY<TAB>-<TAB>-" when no round had both figures.
# one_each WHAT "KNOWN ..." NAME...: at least one NAME, every NAME one of KNOWN and none given
#   twice, else die (status 2) naming it: a list of blanks ran nothing, a name a script does
#   not know ran another job under it (or gave an empty column), and one given twice paired
#   two runs of a round or was refused only after every round was measured. Called before
#   anything runs by disk-vs-fio.sh (TESTS), network-vs-peers.sh (ROWS),
#   fidelity-unixbench.sh (TESTS) and noise-vs-unixbench.sh (TESTS).
# peer_limit GROUP [TEST]: a row's limit, the percent either side of 1 within which
#   ours/theirs is judged level with the peer: the one owner of the limits (peers.sh judges
#   every row with it; disk-vs-fio.sh's "within" column and fidelity-unixbench.sh's --verdict
#   default read it). GROUP: stream 10 (STREAM's bandwidth, issue 21's target:
#   docs/benchmarks/memory.md); lmbench, fio, net, unixbench 15 (the latency, disk, network and
#   UnixBench targets of memory.md, disk.md, network.md, fidelity-unixbench.md), except
#   unixbench's TEST whetstone-double: 30, the target fidelity-unixbench.md set for it from
#   its first session, section 4 measuring why: byte-unixbench's whetstone is its own C at
#   -O3 -ffast-math -march=native, ours our own C at the image's fixed -O2 -march=x86-64 with
#   IEEE semantics, a decision kept; our code alone in section 4's driver gave 1.09, the
#   two programs 1.11-1.17 per CPU-second, pinned or not (section 4b). dhry2reg, given 30
#   there too while it was 0.85 in musl, has been within 15 on every quiet host since its
#   section 10: 15.
#   Another GROUP: die (status 2); TEST is the test alone (whetstone-double, not .../1).
# paired_cell FILE KEY: KEY's two cells from paired_cells' lines in FILE (/dev/stdin: a pipe),
#   "MEDIAN<TAB>LOWEST-HIGHEST (N)", or "-<TAB>-" when FILE has no line for KEY. KEY matches
#   the whole first field, never as a pattern.

# shellcheck source=../../lib/sh/die.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../lib/sh/die.sh"
die_status=2
skips() {
	grep -aE '@isobench/1 [0-9]+ (SKIP|FAIL|ERROR) ' "$1" |
		sed -E 's/^.*@isobench\/1 [0-9]+ //; s/ \*[0-9a-f]{8}$//; s/%20/ /g' | cut -c1-240 >&2 || true
}
one_each() {
	local what=$1 known=" $2 " n
	shift 2
	[ $# -gt 0 ] || die "$what: no name given (known:${known% })"
	local -A seen=()
	for n in "$@"; do
		[[ -n $n && $n != *[[:space:]]* && $known == *" $n "* ]] || die "$what: unknown name '$n' (known:${known% })"
		[ -z "${seen[$n]:-}" ] || die "$what: $n given twice (a round runs each once)"
		seen[$n]=1
	done
}
# peer_num: awk's num(x), whether x is a figure (paired_ratio's rule above: a decimal > 0 and
#   at most DBL_MAX), for the awk programs of the scripts that source this file.
peer_num='function num(x) { return x ~ /^[+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ && x + 0 > 0 && x + 0 <= 1.7976931348623157e308 }'
paired_ratio() {
	awk "$peer_num"'
	{ gsub(/\r/, "") }
	!NF { next }
	!($1 in n) { order[++keys] = $1; n[$1] = 0 }
	num($2) && num($3) { r[$1, ++n[$1]] = $2 / $3 }
	END {
		for (i = 1; i <= keys; i++) {
			k = order[i]; m = n[k]
			if (!m) { print k, "-", "-", "-", 0; continue }
			for (a = 1; a <= m; a++) v[a] = r[k, a]
			for (a = 2; a <= m; a++) for (b = a; b > 1 && v[b - 1] > v[b]; b--) { t = v[b]; v[b] = v[b - 1]; v[b - 1] = t }
			med = m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
			printf "%s %.6f %.6f %.6f %d\n", k, med, v[1], v[m], m
		}
	}'
}
paired_cells() {
	awk -v d="$1" 'BEGIN { f = "%." d "f" }
	NF == 5 { if ($5 > 0) printf "%s\t" f "\t" f "-" f " (%d)\n", $1, $2, $3, $4, $5; else printf "%s\t-\t-\n", $1 }'
}
peer_limit() {
	case $1:${2:-} in
	stream:*) echo 10 ;;
	unixbench:whetstone-double) echo 30 ;;
	lmbench:* | fio:* | net:* | unixbench:*) echo 15 ;;
	*) die "peer_limit: no limit for the group '$1'" ;;
	esac
}
paired_cell() {
	awk -F'\t' -v k="$2" '$1 == k { print $2 "\t" $3; found = 1; exit } END { if (!found) print "-\t-" }' "$1"
}
