#!/usr/bin/env bash
# tests/test-meanings.sh — one owner per meaning (issue 16, "one helper per job"): grep finds
# one definition of each of these, and every other file derives from it.
#   helpers  the tmpfs magic (payload/sys.h), the futex constants and calls (payload/sys.c),
#            the monotonic clock in ns (payload/sys.c), the whole-buffer read/write loops
#            (lib/io.c), the removal of a work directory (payload/sys.c);
#   meanings "index test" (ub_is_index(), lib/unixbench.c; UB_INDEX_TESTS once; no list
#            of index names in a script), the groups and the units (lib/vocab.h;
#            docs/parameters.md's groups are the binary's), the exit statuses (lib/status.h;
#            docs/exit-status.md's and docs/report.md's tables have its numbers, qemu/run reads them), the boot
#            entries' console and log-level words (image/cmdline, read by qemu/run and
#            image/build-iso.sh).
# Then each check must fail on its own planted violation in a copy of the tree.
#
# In:  the tree; $OUT/isobench (OUT defaults to out/) for the groups --list prints.
# Out: one line per check, then "N passed, M failed, K skipped". Errors: exit 1 on a failure.
# shellcheck disable=SC2016 # backquotes and $ in single quotes are literal patterns here
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out=${OUT:-$top/out}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
use_tmp

# c_files ROOT: the C sources and headers of the runner, lib/, the report tool and the unit
# tests, relative to ROOT.
c_files() {
	(cd "$1" && find payload lib report tests/unit -name '*.[ch]' | LC_ALL=C sort)
}

# files_matching ROOT ERE [DIR]: the C files (see c_files; with DIR, only those under DIR/)
# with a line matching ERE, one per line.
files_matching() {
	local f
	local -a fs=()
	while read -r f; do
		case $f in "${3:-}"*) fs+=("$f") ;; esac
	done < <(c_files "$1")
	# One grep over them all (-l names each file once, in the order given), not one per file.
	[ "${#fs[@]}" -eq 0 ] || (cd "$1" && grep -lE -- "$2" "${fs[@]}") || true
}

# whole_buffer_loops ROOT: C files holding a read()/write() loop over a whole buffer: a
# call read|write(FD, P, N) followed, within a few lines, by "N -=".
whole_buffer_loops() {
	c_files "$1" | python3 -c '
import re, sys
root = sys.argv[1]
call = re.compile(r"\b(read|write)\s*\(\s*\w+\s*,\s*[^,;]+,\s*(\w+)\s*\)")
for f in sys.stdin.read().split():
    s = open(root + "/" + f, errors="replace").read()
    if any(re.search(r"\b%s\s*-=" % re.escape(m.group(2)), s[m.end():m.end() + 400])
           for m in call.finditer(s)):
        print(f)' "$1"
}

# owner_is ROOT LABEL WANT GOT: GOT (file names, one per line) must be exactly WANT.
owner_is() {
	local got
	got=$(echo "$4" | sed '/^$/d' | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" = "$3" ]; then pass "$2: ${3:-none}"
	else fail "$2: want ${3:-no file}, found in: ${got:-no file}"; fi
}

# groups_of_readme ROOT: the groups docs/parameters.md's `tests` row names, sorted, "all" left
# out (it is no group but every group except selftest).
groups_of_readme() {
	grep '^| `tests` |' "$1/docs/parameters.md" | sed -n 's/.*groups: \(.*\); `isobench --list`.*/\1/p' |
		grep -o '`[a-z0-9]*`' | tr -d '`' | grep -vx all | LC_ALL=C sort | tr '\n' ' '
}

# groups_of_binary: the groups `isobench --list` prints (from vocab_groups[]), sorted.
groups_of_binary() {
	"$out/isobench" --list | sed -n 's/^Groups: \(.*\); all .*/\1/p' | tr ',' '\n' |
		sed 's/^ *//; s/ .*//' | sed '/^$/d' | LC_ALL=C sort | tr '\n' ' '
}

# statuses_of_header ROOT / statuses_of_readme ROOT: the exit-status numbers, sorted.
statuses_of_header() {
	sed -n 's/^#define EXIT_[A-Z]*[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p' "$1/lib/status.h" |
		sort -n | tr '\n' ' '
}
statuses_of_readme() {
	sed -n '/^# Exit status/,/^## /p' "$1/docs/exit-status.md" | sed -n 's/^| \([0-9]\{1,\}\) |.*/\1/p' |
		sort -n | tr '\n' ' '
}
# statuses_of_report_doc ROOT: those of docs/report.md's table (the report tool's subset).
statuses_of_report_doc() {
	sed -n '/^## Exit status/,/^## /p' "$1/docs/report.md" | sed -n 's/^| \([0-9]\{1,\}\) |.*/\1/p' |
		sort -n | tr '\n' ' '
}

# qemu_run_status_literals ROOT: lines of the scripts that return or judge our tools' exit
# statuses (qemu/run and its parts qemu/lib/*.sh, report/variability.sh) that spell one as a number (exit N; the report's
# status rc/jrc set, compared or matched in a case arm to N) instead of reading it from
# lib/status.h (lib/sh/status.sh); timeout(1)'s 124/137, the shell's 130 (SIGINT) and the
# lines that say what happens when lib/status.h cannot be read are not ours.
qemu_run_status_literals() {
	(cd "$1" && grep -nE '\bexit [0-9]|\bj?rc=[1-9]|\bj?rc" -eq [0-9]|case \$j?rc in [0-9]|^[[:space:]]*[0-9]+\)' \
		qemu/run qemu/lib/*.sh report/variability.sh) | grep -vE '\b(124|130|137)\b|lib/status\.h'
}

# cmdline_owners ROOT: files under qemu/ and image/ that spell the entries' console and
# log-level words, and whether qemu/run (its parts, qemu/lib/) and build-iso.sh read image/cmdline.
cmdline_owners() {
	(cd "$1" && grep -lF -- 'console=ttyS0,115200 loglevel=4' qemu/* qemu/lib/* image/* 2>/dev/null)
	grep -q 'image/cmdline' "$1/qemu/run" "$1"/qemu/lib/*.sh || echo "qemu/run-reads-no-image/cmdline"
	grep -q '"$here/cmdline"' "$1/image/build-iso.sh" || echo "build-iso.sh-reads-no-image/cmdline"
}

judge() { # judge ROOT LABEL: every check on one tree
	local r=$1 l=$2 a b
	owner_is "$r" "$l: the tmpfs magic is defined in" "payload/sys.h" \
		"$(files_matching "$r" '0[xX]0*1021994')"
	owner_is "$r" "$l: futex constants and calls live in" "payload/sys.c" \
		"$(files_matching "$r" 'SYS_futex|define[[:space:]]+FUTEX_')"
	owner_is "$r" "$l: CLOCK_MONOTONIC is read into ns in" "payload/sys.c" \
		"$(files_matching "$r" 'clock_gettime\(CLOCK_MONOTONIC, *&')"
	owner_is "$r" "$l: whole-buffer read/write loops live in" "lib/io.c" \
		"$(whole_buffer_loops "$r")"
	owner_is "$r" "$l: a directory tree is removed in" "payload/sys.c" \
		"$(files_matching "$r" '\bnftw\(|"-rf"')"
	# (the runner decides; the report reads the decision off the records' baseline=)
	owner_is "$r" "$l: index membership is decided in" "lib/unixbench.h" \
		"$(files_matching "$r" '->baseline > 0;|baseline != 0;|group, (REC_GROUP_INDEX|"index")\)|= [a-z>-]*has_baseline;')"
	owner_is "$r" "$l: the index's size is defined in" "lib/unixbench.h" \
		"$(files_matching "$r" 'define[[:space:]]+UB_INDEX_TESTS')"
	owner_is "$r" "$l: scripts listing the index tests by name" "" \
		"$(cd "$r" && grep -lE 'dhry2reg[ \\]+whetstone-double' tests/*.sh qemu/run qemu/lib/*.sh image/*.sh)"
	owner_is "$r" "$l: the groups are listed in" "lib/vocab.h" \
		"$(files_matching "$r" '"extra", "probes"|index, extra, probes|define[[:space:]]+REC_GROUP_[A-Z0-9_]+[[:space:]]+"')"
	owner_is "$r" "$l: the units are listed in" "lib/vocab.h" \
		"$(files_matching "$r" '"lps", "lpm"|define[[:space:]]+REC_UNIT_[A-Z0-9_]+[[:space:]]+"')"
	owner_is "$r" "$l: exit statuses are defined in" "lib/status.h" \
		"$(files_matching "$r" 'define[[:space:]]+EXIT_[A-Z]+[[:space:]]+[0-9]')"
	owner_is "$r" "$l: qemu/run and report/variability.sh lines with a literal exit status" "" \
		"$(qemu_run_status_literals "$r")"
	owner_is "$r" "$l: the boot entries' console words live in" "image/cmdline" \
		"$(cmdline_owners "$r")"
	a=$(statuses_of_readme "$r") b=$(statuses_of_header "$r")
	if [ -n "$b" ] && [ "$a" = "$b" ]; then pass "$l: docs/exit-status.md's statuses are lib/status.h's ($b)"
	else fail "$l: docs/exit-status.md's statuses ($a) are not lib/status.h's ($b)"; fi
	a=$(statuses_of_report_doc "$r")
	if [ -n "$a" ] && [ -z "$(comm -23 <(tr ' ' '\n' <<<"$a" | sed '/^$/d' | sort) \
		<(tr ' ' '\n' <<<"$b" | sed '/^$/d' | sort))" ]; then
		pass "$l: docs/report.md's exit statuses are among lib/status.h's ($a)"
	else fail "$l: docs/report.md's exit statuses ($a) are not all lib/status.h's ($b)"; fi
	if [ -x "$out/isobench" ]; then
		a=$(groups_of_readme "$r") b=$(groups_of_binary)
		if [ -n "$b" ] && [ "$a" = "$b" ]; then pass "$l: docs/parameters.md's groups are vocab_groups[] ($b)"
		else fail "$l: docs/parameters.md's groups ($a) are not vocab_groups[] ($b)"; fi
	else
		skip "$l: docs/parameters.md's groups: no $out/isobench to list them"
	fi
}

judge "$top" "tree"

# The same checks on a copy of the tree with one violation planted per check.
tree_copy "$tmp/tree" lib payload report tests qemu image docs
t=$tmp/tree
printf '#define X_TMPFS 0x01021994\n' >>"$t/payload/main.c"
printf '#define FUTEX_WAIT 0\n' >>"$t/payload/bench/tbench.c"
printf 'static uint64_t t(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return 0; }\n' \
	>>"$t/payload/out.c"
cat >>"$t/payload/bench/fs.c" <<'EOF'
static int write_all2(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}
EOF
printf '\texecl("/bin/rm", "rm", "-rf", path, (char *)NULL);\n' >>"$t/payload/harness.c"
printf 'int x(const struct bench *b) { return b->baseline > 0; }\n' >>"$t/payload/runner.c"
printf '#define UB_INDEX_TESTS 12\n' >>"$t/report/fleet.c"
printf 'for t in dhry2reg %s execl; do :; done\n' whetstone-double >>"$t/tests/test-native.sh"
printf 'static const char *const g[] = {"index", "extra", "probes", NULL};\n' >>"$t/tests/unit/test_registry.c"
printf 'static const char *const u[] = {"lps", "lpm", NULL};\n' >>"$t/report/model.c"
printf '#define EXIT_USAGE 2\n' >>"$t/report/main.c"
sed -i 's/exit "${st\[TIMEOUT\]}"/exit 5/' "$t/qemu/lib/boot.sh"
n=3 # (EXIT_INCOMPLETE retyped; a variable, so that this line passes test-testlib's lint)
sed -i 's/\[ "$rc" -eq "${st\[INCOMPLETE\]}" \]/[ "$rc" -eq '"$n"' ]/' "$t/report/variability.sh"
sed -i 's/^\([[:space:]]*\)common=.*image\/cmdline.*/\1common="console=tty0 console=ttyS0,115200 loglevel=4"/' "$t/qemu/lib/image.sh"
sed -i 's/^| 7 |/| 8 |/' "$t/docs/exit-status.md"
sed -i 's/^| 6 |/| 9 |/' "$t/docs/report.md"
sed -i 's/, `probes` ([^)]*)//' "$t/docs/parameters.md"
want=$( (judge "$top" "count") | grep -c '^\(ok\|FAIL\): count' || true)	# none: "0", status 1
planted_fails judge "$t" "$want" "every check fails on its planted violation"
if grep -q 'report/variability.sh:[0-9]*:.*-eq 3 \]' "$tmp/planted.out"; then
	pass "a status spelled as a number in report/variability.sh is found"
else fail "report/variability.sh's planted -eq 3 is not named"; fi

finish
