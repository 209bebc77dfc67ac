# shellcheck shell=bash disable=SC2154,SC2034 # the globals qemu/run's parts share (set in one, read in another)
# qemu/lib/repeat.sh — several boots: --repeat N, --ab-params A B / --ab IMAGE_A IMAGE_B
# [--rounds N] (part of qemu/run, sourced by it after qemu/lib/common.sh).
# Replicates and interleaved A/B (issue 35): this script boots once per run, calling itself
# with the other options, one log per boot named so the boots group: BASE-rK.log (--repeat),
# BASE-rK-a.log and BASE-rK-b.log (--ab-params or --ab, A B in odd rounds K and B A in even ones:
# the balanced order, issue 46; --ab boots
# image A, then image B: an out/ directory is given as --out DIR, a file as --iso FILE). Each boot's
# command line gets isobench.round=K (and isobench.ab_side=a|b isobench.ab_pos=1|2, its place in
# the round, then the set's words) so the
# report pairs the rounds: isobench-report BASE-r*.log (the sides come from run.ab_side), or
# isobench-report --label a,a,a,b,b,b ... for --repeat 3 logs of two builds (the closing line
# gives that list, these logs side a, the other build's B-rK.log side b). Status: the first boot's
# that is not 0, else 0; every boot runs whatever an earlier one gave.
# image_opts IMAGE: the options that choose IMAGE for one boot (--out DIR or --iso FILE) into
# abimg; a usage error (status 2) when IMAGE is neither a directory nor a file.
image_opts() {
	if [ -d "$1" ]; then abimg=(--out "$1")
	elif [ -f "$1" ]; then abimg=(--iso "$1")
	else echo "$prog: --ab: '$1' is neither an out/ directory nor an ISO file" >&2; exit "${st[USAGE]}"; fi
}
# several_boots ARGS...: qemu/run's arguments. With --repeat, --ab-params or --ab (and no
# --check-args): every boot, then the closing line; exits with the status above. Otherwise (or
# for --check-args) returns with one_boot, the options of the one boot, for parse_options;
# exits USAGE on a malformed --repeat/--rounds/--ab*/--log/--params.
several_boots() {
	repeat='' ab_a='' ab_b='' ab=0 rounds='' mlog='' mparams='' rest=() img_a=() img_b=()
	while [ $# -gt 0 ]; do
		case $1 in
			--repeat | --rounds | --log | --params)
				if [ $# -lt 2 ] || [ -z "$2" ]; then
					echo "$prog: option $1 needs a value" >&2; exit "${st[USAGE]}"
				fi
				case $1 in
					--repeat) repeat=$2 ;; --rounds) rounds=$2 ;; --log) mlog=$2 ;; --params) mparams=$2 ;;
				esac
				shift 2 ;;
			--ab-params)
				if [ $# -lt 3 ] || [[ "$2" == --* ]] || [[ "$3" == --* ]]; then
					echo "$prog: --ab-params wants two parameter sets: --ab-params 'A ...' 'B ...'" >&2
					exit "${st[USAGE]}"
				fi
				[ "${#img_a[@]}" -eq 0 ] || { echo "$prog: --ab and --ab-params do not go together" >&2; exit "${st[USAGE]}"; }
				ab=1 ab_a=$2 ab_b=$3
				shift 3 ;;
			--ab)
				if [ $# -lt 3 ] || [[ "$2" == --* ]] || [[ "$3" == --* ]]; then
					echo "$prog: --ab wants two images: --ab IMAGE_A IMAGE_B (each an out/ directory or an ISO file)" >&2
					exit "${st[USAGE]}"
				fi
				[ "$ab" -eq 0 ] || { echo "$prog: --ab and --ab-params do not go together" >&2; exit "${st[USAGE]}"; }
				image_opts "$2"; img_a=("${abimg[@]}")
				image_opts "$3"; img_b=("${abimg[@]}")
				ab=1
				shift 3 ;;
			*) rest+=("$1"); shift ;;
		esac
	done
	# The options of one boot (the user's, and a --log or --params this part took): one_boot.
	one_boot=(${rest[@]+"${rest[@]}"})
	[ -z "$mlog" ] || one_boot+=(--log "$mlog")
	[ -z "$mparams" ] || one_boot+=(--params "$mparams")
	for v in "$repeat" "$rounds"; do
		if [ -n "$v" ] && ! [[ "$v" =~ ^[1-9][0-9]{0,2}$ ]]; then
			echo "$prog: --repeat and --rounds take a number of boots, 1..999, not '$v'" >&2
			exit "${st[USAGE]}"
		fi
	done
	if [ -n "$rounds" ] && [ "$ab" -eq 0 ]; then echo "$prog: --rounds goes with --ab-params or --ab" >&2; exit "${st[USAGE]}"; fi
	if [ -n "$repeat" ] && [ "$ab" -eq 1 ]; then echo "$prog: --repeat and --ab-params/--ab do not go together (--rounds N repeats the pair)" >&2; exit "${st[USAGE]}"; fi
	if [ "${#img_a[@]}" -gt 0 ]; then
		for a in ${rest[@]+"${rest[@]}"}; do
			[ "$a" != --iso ] || { echo "$prog: --ab chooses the images: no --iso beside it" >&2; exit "${st[USAGE]}"; }
		done
	fi
	checking=0
	for a in ${rest[@]+"${rest[@]}"}; do [ "$a" != --check-args ] || checking=1; done
	if [ "$checking" -eq 0 ] && { [ -n "$repeat" ] || [ "$ab" -eq 1 ]; }; then
		base=${mlog%.log}
		[ -n "$base" ] || base=results/$(date -u +%Y%m%dT%H%M%SZ)-$([ "$ab" -eq 1 ] && echo ab || echo repeat)
		mkdir -p "$(dirname "$base")"
		first=${st[OK]} logs=()
		# boot LOG PARAMS [IMAGE-OPTION...]: one boot of this script with the other options (the
		# image's --out or --iso after them: it wins); its status into first.
		boot() {
			local r=0 p=$2 pa=() log=$1
			shift 2
			p=${p#"${p%%[! ]*}"}	# no leading blanks (no --params of the user's)
			p=${p%"${p##*[! ]}"}	# nor trailing ones (--ab: no parameter set)
			[ -z "$p" ] || pa=(--params "$p")
			echo "$prog: boot $((${#logs[@]} + 1)): $log ($p)${1:+ [$*]}" >&2
			"$0" ${rest[@]+"${rest[@]}"} --log "$log" ${pa[@]+"${pa[@]}"} "$@" || r=$?
			logs+=("$log")
			[ "$first" -ne "${st[OK]}" ] || first=$r
		}
		if [ "$ab" -eq 1 ]; then
			# The balanced order (issue 46; payload/params.h ab_side_at()'s rule): A B in odd
			# rounds, B A in even ones, so each side boots second in half the rounds; each boot
			# says its place (isobench.ab_pos, INFO run.ab_pos).
			for k in $(seq 1 "${rounds:-5}"); do
				for pos in 1 2; do
					if [ $((k % 2)) -eq $((pos % 2)) ]; then
						boot "$base-r$k-a.log" "$mparams isobench.round=$k isobench.ab_side=a isobench.ab_pos=$pos $ab_a" \
							${img_a[@]+"${img_a[@]}"}
					else
						boot "$base-r$k-b.log" "$mparams isobench.round=$k isobench.ab_side=b isobench.ab_pos=$pos $ab_b" \
							${img_b[@]+"${img_b[@]}"}
					fi
				done
			done
		else
			for k in $(seq 1 "$repeat"); do boot "$base-r$k.log" "$mparams"; done
		fi
		# The report tool of the user's --out (the host tools live there), else of this tree.
		prev=''
		rep=$here/out
		for a in ${rest[@]+"${rest[@]}"}; do
			[ "$prev" != --out ] || rep=$a
			case $a in --out=*) rep=${a#--out=} ;; esac
			prev=$a
		done
		if [ "$ab" -eq 1 ]; then	# the sides and rounds are in the logs (run.ab_side, run.round)
			echo "$prog: ${#logs[@]} boots; compare with: $rep/isobench-report ${logs[*]}" >&2
		else	# these N logs are side a; the other build's --repeat N (B-rK.log) side b: a label each
			other=()
			for k in $(seq 1 "$repeat"); do other+=("B-r$k.log"); done
			echo "$prog: ${#logs[@]} boots; compare with: $rep/isobench-report --label" \
				"$(printf 'a,%.0s' "${logs[@]}")$(printf 'b,%.0s' "${other[@]}" | sed 's/,$//')" \
				"${logs[*]} ${other[*]} (B-rK.log: the other side's --repeat $repeat logs)" >&2
		fi
		exit "$first"
	fi
}
