# tests/lib.sh — the one shell test library (source it; bash). Three verbs count every check:
#   pass WHAT    the check held                    -> "ok: WHAT"
#   fail WHAT    it did not                        -> "FAIL: WHAT"
#   skip WHAT    it could not run here, and why    -> "SKIP: WHAT"
# and finish() prints "N passed, M failed, K skipped" (the line tests/run and CI read; the
# skipped part may be absent in older suites) and returns non-zero when something failed.
# A skip is never a pass: tests/run adds skips up and prints them in its summary.
# The assertions below are built on the verbs; ok/bad are the older names of pass/fail.
# shellcheck shell=bash

pass=0 fail=0 skip=0

pass() { echo "ok: $*"; pass=$((pass + 1)); }
fail() { echo "FAIL: $*"; fail=$((fail + 1)); }
skip() { echo "SKIP: $*"; skip=$((skip + 1)); }
ok() { pass "$@"; }
bad() { fail "$@"; }

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then pass "$what"; else fail "$what"; fi
}

# status_is WANT GOT DESCRIPTION
status_is() {
	if [ "$2" -eq "$1" ]; then pass "$3 (status $2)"; else fail "$3: want status $1, got $2"; fi
}

# expect_status WANT DESCRIPTION -- COMMAND...: run COMMAND (stdout and stderr into
# $tmp/stdout and $tmp/stderr; $tmp must exist) and check its exit status.
expect_status() {
	local want=$1 what=$2 got=0
	shift 3
	# shellcheck disable=SC2154  # $tmp belongs to the sourcing script
	"$@" >"$tmp/stdout" 2>"$tmp/stderr" || got=$?
	if [ "$got" -eq "$want" ]; then
		pass "$what (status $got)"
	else
		fail "$what: want status $want, got $got; stderr: $(head -n 3 "$tmp/stderr" | tr '\n' '|')"
	fi
}

# has FILE REGEX DESCRIPTION: some line of FILE matches the extended regex.
has() {
	if grep -Eq -- "$2" "$1"; then pass "$3"; else fail "$3: no line matches '$2' in $1"; fi
}

# hasnt FILE REGEX DESCRIPTION
hasnt() {
	if grep -Eq -- "$2" "$1"; then fail "$3: '$2' found in $1"; else pass "$3"; fi
}

# contains FILE STRING [DESCRIPTION]: a fixed-string match; lacks: none.
contains() {
	local what=${3:-$1 holds \"$2\"}
	if grep -qF -- "$2" "$1"; then pass "$what"; else fail "$what: \"$2\" not in $1"; fi
}
lacks() {
	local what=${3:-$1 lacks \"$2\"}
	if grep -qF -- "$2" "$1"; then fail "$what: \"$2\" found in $1"; else pass "$what"; fi
}

# count_is FILE REGEX N DESCRIPTION: exactly N lines match.
count_is() {
	local n
	n=$(grep -Ec -- "$2" "$1" || true)
	if [ "$n" -eq "$3" ]; then pass "$4 ($n)"; else fail "$4: want $3 lines matching '$2', got $n"; fi
}

finish() {
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
}
