#!/usr/bin/env bash
# tests/test-deps.sh — every header, library, program and file the build, the run and the tests
# take from the system comes from a Debian package build.sh installs before that step
# (tests/deps.py does the work), and the check really fails when a package goes missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
use_tmp

# The tree's uses are collected once (--uses: the file written here, read by the --drop runs).
rc=0
python3 "$here/deps.py" --uses "$tmp/uses.json" >"$tmp/deps.out" 2>&1 || rc=$?
grep -E '^FAIL: ' "$tmp/deps.out" || true	# the failures shown (none: nothing)
n_ok=$(grep -c '^ok: ' "$tmp/deps.out" || true)
n_bad=$(grep -c '^FAIL: ' "$tmp/deps.out" || true)
if [ "$rc" -eq 0 ] && [ "$n_bad" -eq 0 ] && [ "$n_ok" -gt 50 ]; then
	ok "dependency check: $n_ok uses, each from a listed package"
else
	bad "dependency check: $n_bad uses not covered by build.sh's lists (status $rc)"
fi
# Each kind of use is found at all (a scanner that finds nothing would pass everything).
for kind in 'header /usr/include/jansson.h' 'header /usr/aarch64-linux-gnu/include/stdio.h' 'library /usr/lib/x86_64-linux-gnu/libjansson.so' \
	'program musl-gcc' 'program qemu-system-x86_64' 'command telnet' 'program xorriso' 'file /usr/lib/ISOLINUX' \
	'python module'; do
	has "$tmp/deps.out" "^ok: [a-z]+: $kind" "dependency check sees: $kind"
done

# The check fails, naming file and package, when a package leaves the lists: the report tool's
# JSON library (the fresh-machine failure of issue 9) and the runner's compiler.
st=0
python3 "$here/deps.py" --uses "$tmp/uses.json" --drop libjansson-dev >"$tmp/drop.out" 2>&1 || st=$?
status_is CMD_FAILED "$st" "without libjansson-dev the check fails"
has "$tmp/drop.out" '^FAIL: report/[a-z_]+\.c: header /usr/include/jansson.h needs package libjansson-dev' \
	"... naming jansson.h and libjansson-dev"
st=0
python3 "$here/deps.py" --uses "$tmp/uses.json" --drop musl-tools >"$tmp/drop.out" 2>&1 || st=$?
status_is CMD_FAILED "$st" "without musl-tools the check fails"
has "$tmp/drop.out" '^FAIL: .*program musl-gcc.* needs package musl-tools' "... naming musl-gcc and musl-tools"
# (lava-dispatcher goes too: through python3-guestfs -> libguestfs0 it depends on cpio.)
st=0
python3 "$here/deps.py" --uses "$tmp/uses.json" --drop cpio --drop lava-dispatcher >"$tmp/drop.out" 2>&1 || st=$?
status_is CMD_FAILED "$st" "without cpio the check fails"
has "$tmp/drop.out" '^FAIL: tests/.*program cpio .*needs package cpio' "... naming cpio in the tests"
# The cross-built isobench-proc's headers are checked too: Debian's arm64 glibc headers came
# only as the cross compiler's Recommends, so an install without Recommends broke the arm64
# image while every check of the host compiler's headers passed.
st=0
python3 "$here/deps.py" --uses "$tmp/uses.json" --drop libc6-dev-arm64-cross >"$tmp/drop.out" 2>&1 || st=$?
status_is CMD_FAILED "$st" "without libc6-dev-arm64-cross the check fails"
has "$tmp/drop.out" "^FAIL: payload/proc/isobench-proc\.c \(aarch64-linux-gnu-gcc\): header /usr/aarch64-linux-gnu/include/[a-z/]+\.h needs package libc6-dev-arm64-cross.*add it to the arm64 list" \
	"... naming a cross header, libc6-dev-arm64-cross and the arm64 list"
# A LAVA device's connection command is checked too: lava-dispatcher only Recommends telnet,
# and an install without Recommends left `lava-run --validate` of the x86 iPXE job failing.
st=0
python3 "$here/deps.py" --uses "$tmp/uses.json" --drop inetutils-telnet >"$tmp/drop.out" 2>&1 || st=$?
status_is CMD_FAILED "$st" "without inetutils-telnet the check fails"
has "$tmp/drop.out" '^FAIL: lava/devices/x86-ipxe-example\.yaml: command telnet .*needs package inetutils-telnet' \
	"... naming the LAVA device's connect command and inetutils-telnet"
# A device's command is read plain, quoted or as a list item, never from a comment (a quoted
# value passed the check with its package dropped).
cmds=$(python3 - "$here/deps.py" <<'EOF'
import importlib.util as u, sys
s = u.spec_from_file_location("deps", sys.argv[1]); d = u.module_from_spec(s); s.loader.exec_module(d)
print(" ".join(d.LAVA_COMMAND.findall("""commands:
  connect: telnet host 7001
  connect: "qtelnet host"
  - command: 'qemu-x'
# connect: commented
""")))
EOF
) || true
if [ "$cmds" = "telnet qtelnet qemu-x" ]; then pass "LAVA device commands: plain, quoted, list item; not a comment"
else fail "LAVA device commands read as '$cmds', want 'telnet qtelnet qemu-x'"; fi
# A case arm's patterns are values, not commands (qemu/run's `aws)` arm was read as a call of
# an aws program, which a host with the AWS CLI outside Debian's paths then flagged).
words=$(python3 - "$here/deps.py" <<'EOF'
import importlib.util as u, sys
s = u.spec_from_file_location("deps", sys.argv[1]); d = u.module_from_spec(s); s.loader.exec_module(d)
print(" ".join(sorted(d.shell_commands("case $c in '' | aws | gce) ;; esac\ncase $m in\n  oci) mkdir x ;;\nesac\n"))))
EOF
) || true
if [ "$words" = "mkdir" ]; then pass "a case arm's patterns are no commands; the arm's command is"
else fail "case arms: commands read as '$words', want 'mkdir'"; fi
finish
