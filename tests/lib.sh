# tests/lib.sh — assertion helpers shared by the test scripts (source it; bash).
# Every assertion prints one line ("ok: ..." or "FAIL: ...") and counts; finish() prints
# "N passed, M failed" (the line tests/run and CI read) and returns non-zero on failure.
# shellcheck shell=bash

pass=0 fail=0

ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$what"; else bad "$what"; fi
}

# status_is WANT GOT DESCRIPTION
status_is() {
	if [ "$2" -eq "$1" ]; then ok "$3 (status $2)"; else bad "$3: want status $1, got $2"; fi
}

# has FILE REGEX DESCRIPTION: some line of FILE matches the extended regex.
has() {
	if grep -Eq -- "$2" "$1"; then ok "$3"; else bad "$3: no line matches '$2' in $1"; fi
}

# hasnt FILE REGEX DESCRIPTION
hasnt() {
	if grep -Eq -- "$2" "$1"; then bad "$3: '$2' found in $1"; else ok "$3"; fi
}

# count_is FILE REGEX N DESCRIPTION: exactly N lines match.
count_is() {
	local n
	n=$(grep -Ec -- "$2" "$1" || true)
	if [ "$n" -eq "$3" ]; then ok "$4 ($n)"; else bad "$4: want $3 lines matching '$2', got $n"; fi
}

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
