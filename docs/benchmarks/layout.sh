#!/usr/bin/env bash
# docs/benchmarks/layout.sh — does dhry2reg (or whetstone-double) move with the code linked
# before it?  Builds the runner (and isobench-proc) with planted padding of several sizes and
# runs the padded builds natively, interleaved.
#
#   layout.sh SRC[,SRC...] WORK [ROUNDS [SAMPLE_MS [PADS [TESTS]]]] >layout.tsv
#   layout.sh --table layout.tsv        medians per padding and the spread across paddings
#
# In:  SRC: a source tree of isobench (the repository's root, or a commit's
#      `git archive COMMIT payload lib kernel-config` unpacked); its payload/Makefile must know
#      LAYOUT_PAD (bytes of int3 linked just before the Dhrystone objects; since Dhrystone
#      runs in isobench-proc, payload/proc/Makefile's LAYOUT_PAD pads it there, and each
#      padded runner runs beside its padded isobench-proc in WORK/padN/).  WORK: a scratch
#      folder for the builds (created).  Several SRC, comma-separated (before and after a
#      change), are built apart and run in the same rounds; their padded builds are then named
#      NAME/PAD, NAME the SRC folder's name.  ROUNDS (default 5), SAMPLE_MS per sample (default
#      2000; 3 samples per run), PADS (default "0 16 48 4120"), TESTS (default "dhry2reg").
# Out: one TSV line per sample on stdout: round pad test sample value per_cpu loadavg1, where
#      value is the sample's loops per wall second (isobench's figure) and per_cpu its
#      ran_loops / cpu_ns in loops per CPU-second (whetstone-double: its loops, not MWIPS):
#      the speed while it ran, which a host shared with other work skews far less; progress
#      on stderr.  --table: per build the medians and the best sample per CPU-second (load
#      only ever slows a sample down), and per test the spread max / min - 1 across builds.
# Each round runs every padded build once, in an order rotated per round, so drifting load
# hits all builds alike.
# Errors: exits 2 on a usage error, 1 when a build or run fails.
set -euo pipefail

if [ "${1:-}" = --table ]; then
	[ -f "${2:-}" ] || { echo "usage: $0 --table LAYOUT.TSV" >&2; exit 2; }
	awk -F'\t' '
		function median(list,   a, n, i, t, j) {
			n = split(list, a, " ")
			for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		{ k = $3 "\t" $2; v[k] = v[k] " " $5; c[k] = c[k] " " $6; n[k]++; if ($6 > best[k]) best[k] = $6
		  if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
		  if (!(k in lo) || $7 < lo[k]) lo[k] = $7; if ($7 > hi[k]) hi[k] = $7 }
		END {
			print "| test | padding (bytes) | samples | median value | median per CPU-s | best per CPU-s | loadavg |"
			print "|---|---:|---:|---:|---:|---:|---|"
			for (i = 1; i <= nk; i++) {
				k = order[i]; split(k, tp, "\t"); m = median(v[k]); mc = median(c[k])
				printf "| %s | %s | %d | %.0f | %.0f | %.0f | %.1f-%.1f |\n", tp[1], tp[2], n[k], m, mc, best[k], lo[k], hi[k]
				g = tp[1]; if (tp[2] ~ /\//) { sub(/\/[^\/]*$/, "", tp[2]); g = g " " tp[2] }
				if (!(g in mn) || mc < mn[g]) mn[g] = mc
				if (mc > mx[g]) mx[g] = mc
				if (!(g in wn) || m < wn[g]) wn[g] = m
				if (m > wx[g]) wx[g] = m
				if (!(g in bn) || best[k] < bn[g]) bn[g] = best[k]
				if (best[k] > bx[g]) bx[g] = best[k]
			}
			for (t in mn)
				printf "\n%s: spread across paddings (max / min - 1): medians %.1f%% per CPU-s, %.1f%% by wall clock; best samples %.1f%% per CPU-s\n", t, (mx[t] / mn[t] - 1) * 100, (wx[t] / wn[t] - 1) * 100, (bx[t] / bn[t] - 1) * 100
		}' "$2"
	exit 0
fi
[ $# -ge 2 ] || { sed -n '2,26s/^# \{0,1\}//p' "$0" >&2; exit 2; }
IFS=, read -r -a srcs <<<"$1"
mkdir -p "$2"
work=$(cd "$2" && pwd)
rounds=${3:-5}
ms=${4:-2000}
read -r -a pads <<<"${5:-0 16 48 4120}"
read -r -a tests <<<"${6:-dhry2reg}"

# Every padded build: its path in bins, its name (PAD, or NAME/PAD with several SRC) in names.
bins=() names=()
for s in "${srcs[@]}"; do
	[ -f "$s/payload/Makefile" ] || { echo "no $s/payload/Makefile" >&2; exit 2; }
	s=$(cd "$s" && pwd)
	o=$work
	[ ${#srcs[@]} -eq 1 ] || o=$work/$(basename "$s")
	for p in "${pads[@]}"; do
		echo "building $s LAYOUT_PAD=$p ..." >&2
		make -s -C "$s/payload" O="$o" LAYOUT_PAD="$p" VERSION=layout >&2 ||
			{ echo "build with LAYOUT_PAD=$p failed" >&2; exit 1; }
		[ -x "$o/isobench-pad$p" ] || { echo "$s/payload/Makefile does not know LAYOUT_PAD" >&2; exit 1; }
		# Each padded runner in a folder of its own, beside the isobench-proc it runs
		# (dhry2reg runs there since 2026-12-02): padded alike when its Makefile knows
		# LAYOUT_PAD, else as shipped (older trees: Dhrystone in the runner).
		mkdir -p "$o/pad$p"
		cp "$o/isobench-pad$p" "$o/pad$p/isobench"
		if [ -f "$s/payload/proc/Makefile" ]; then
			if grep -q LAYOUT_PAD "$s/payload/proc/Makefile"; then
				make -s -C "$s/payload/proc" O="$o" LAYOUT_PAD="$p" >&2 &&
					cp "$o/isobench-proc-pad$p" "$o/pad$p/isobench-proc"
			else
				make -s -C "$s/payload/proc" O="$o" >&2 && cp "$o/isobench-proc" "$o/pad$p/isobench-proc"
			fi || { echo "isobench-proc build with LAYOUT_PAD=$p failed" >&2; exit 1; }
		fi
		bins+=("$o/pad$p/isobench")
		if [ ${#srcs[@]} -eq 1 ]; then names+=("$p"); else names+=("$(basename "$s")/$p"); fi
	done
done

n=${#bins[@]}
for ((r = 1; r <= rounds; r++)); do
	for ((j = 0; j < n; j++)); do
		i=$(((j + r) % n))
		for t in "${tests[@]}"; do
			echo "round $r ${names[$i]} $t ..." >&2
			TMPDIR=$work "${bins[$i]}" --tests "$t" --copies 1 --sample_ms "$ms" \
				--samples 3 2>/dev/null >"$work/run.log" || { echo "${names[$i]} $t failed" >&2; exit 1; }
			load=$(cut -d' ' -f1 /proc/loadavg)
			awk -v r="$r" -v p="${names[$i]}" -v t="$t" -v la="$load" '
				/ SAMPLE / && / i=/ {
					for (f = 1; f <= NF; f++) { split($f, kv, "="); x[kv[1]] = kv[2] }
					printf "%s\t%s\t%s\t%s\t%s\t%.1f\t%s\n", r, p, t, x["i"], x["value"], (x["cpu_ns"] > 0) ? x["ran_loops"] * 1e9 / x["cpu_ns"] : 0, la
				}' "$work/run.log"
		done
	done
done
