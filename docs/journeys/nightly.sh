#!/bin/sh
# docs/journeys/nightly.sh — one night of the regression gate (docs/journeys/nightly.md): boot
# the image under KVM, keep the run in the results store, judge it against this machine's
# earlier nights, write the figures for a benchmark tracker. The GitHub Actions workflow and the
# GitLab CI job beside this file run exactly this script; tests/test-journey-nightly.sh replays it.
#
# In (environment; only ISOBENCH_MACHINE is required):
#   ISOBENCH_MACHINE   this runner's name in the store: the baseline is its own earlier nights
#   ISOBENCH_DB        the store, a SQLite file that must outlive the job (default
#                      isobench-history.db: on a self-hosted runner give a path outside the
#                      checkout)
#   ISOBENCH_ACCEL     kvm (default): qemu/run fails (status 7) when KVM does not work, so an
#                      emulated run is never judged or stored as a KVM one; tcg only when the
#                      job asks for emulation (its runs go to a baseline of their own, below)
#   ISOBENCH_SUITE     the suite (default standard), ISOBENCH_REPEAT its runs in one boot
#                      (default 1: the baseline's runs are other nights, other boots)
#   ISOBENCH_QEMU_ARGS more qemu/run words (default: --cpus host --mem host)
#   ISOBENCH_OUT       the built image's directory (default out)
#   ISOBENCH_LOG       where the night's serial log goes (default night.log)
#   ISOBENCH_CAPTURED  a log captured elsewhere (a LAVA job, a bare machine): judged and stored
#                      instead of booting; ISOBENCH_HV then names its hypervisor for the
#                      baseline (optional: without it the machine name alone selects)
#   ISOBENCH_LAST      how many of the latest nights form the baseline (default 10)
#   ISOBENCH_BENCH     the github-action-benchmark files' prefix (default bench: bench-bigger.json,
#                      bench-smaller.json)
# Out: the boot's progress and table, add's and check's lines; status: check's (0 no test
#   regressed, or the baseline still building: "baseline building: k of 3"; 8 a test regressed;
#   1 the run holds FAIL or ERROR records), or the failing step's (qemu/run 7: KVM unusable;
#   5, 6: timeout, crash; add 3: no complete run) — a night that did not run is never stored.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
machine=${ISOBENCH_MACHINE:?set ISOBENCH_MACHINE to the name of this runner}
db=${ISOBENCH_DB:-isobench-history.db}
accel=${ISOBENCH_ACCEL:-kvm}
out=${ISOBENCH_OUT:-out}
log=${ISOBENCH_LOG:-night.log}
bench=${ISOBENCH_BENCH:-bench}
rep=$out/isobench-report

# 1. The night's run: booted here, or a log captured elsewhere.
if [ -n "${ISOBENCH_CAPTURED:-}" ]; then
	log=$ISOBENCH_CAPTURED
	hv=${ISOBENCH_HV:-}
else
	case $accel in
	kvm) hv=KVM ;;
	tcg) hv=QEMU/TCG; echo "nightly: TCG asked for: emulation, a baseline of its own, never a hypervisor's cost" >&2 ;;
	*) echo "nightly: ISOBENCH_ACCEL must be kvm or tcg, not '$accel'" >&2; exit 2 ;;
	esac
	# shellcheck disable=SC2086 # ISOBENCH_QEMU_ARGS is words
	"$top/qemu/run" --out "$out" --accel "$accel" --suite "${ISOBENCH_SUITE:-standard}" \
		--params "isobench.repeat=${ISOBENCH_REPEAT:-1}" ${ISOBENCH_QEMU_ARGS:---cpus host --mem host} \
		--log "$log"
	st=$?
	[ "$st" -eq 0 ] || { echo "nightly: the boot failed (qemu/run status $st): nothing stored" >&2; exit "$st"; }
fi

# 2. Keep it (checked runs only, each once), then 3. judge it against the earlier nights of
# this machine and hypervisor: add leaves the night's own runs out of its baseline.
"$rep" --db "$db" add --machine "$machine" "$log" || exit $?
"$rep" --db "$db" check --baseline "machine=$machine${hv:+,hv=$hv},last=${ISOBENCH_LAST:-10}" "$log"
st=$?

# 4. The figures for github-action-benchmark (customBiggerIsBetter / customSmallerIsBetter).
"$rep" --format json-bench "$log" >"$bench-bigger.json" 2>/dev/null || true
"$rep" --format json-bench-smaller "$log" >"$bench-smaller.json" 2>/dev/null || true
exit "$st"
