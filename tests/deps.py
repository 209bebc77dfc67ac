#!/usr/bin/env python3
"""tests/deps.py — every file isobench takes from the system comes from a Debian package that
build.sh installs before the step that needs it.

What it checks, mechanically (no list of expected files to keep up to date):
  * headers: each compile command the Makefiles would run (`make -n -B`) is re-run with -M -MG, so
    the compiler itself names every header it reads (isobench-proc's twice: with the host's gcc
    and with the cross compiler ARCH=arm64 builds it with, whose headers are the arm64 list's);
  * libraries: each -lNAME of a link command, resolved by that compiler (-print-file-name);
  * programs: the commands each shell script (and each Makefile recipe) calls, found at command
    positions (line start, after | ; && || $( ` and wrappers such as timeout, nice, xargs, env);
    a word counts when it is an executable in the system PATH (/usr/sbin:/usr/bin:/sbin:/bin);
  * absolute paths (/usr/..., /lib/..., not /etc: that is the machine's configuration) named in
    scripts, Makefiles and C files that exist here;
  * Python modules imported by tracked *.py files;
  * the connection commands of the LAVA devices (lava/devices/*.yaml: `connect:`, `command:`),
    which `lava-run --validate` (tests/test-lava.sh) looks up in PATH: a command named there
    must be installed, so one missing from the machine fails (a word at a shell command
    position that is not installed is taken for no command).
Each file is mapped to its package with `dpkg -S`. A step may use a package when it is in the
closure (Depends and Pre-Depends, not Recommends) of the lists `./build.sh packages` prints for
that step and the steps before it, or of the base system (Essential: yes or Priority: required,
what `debootstrap --variant=minbase` installs). Its "arm64:" list (the cross compiler, the arm64
QEMU and firmware, qemu-user) counts from the build step on: `ARCH=arm64 ./build.sh` installs
it before building, `./build.sh test` before the tests. Its "layers:" list (User-Mode Linux,
gVisor's runsc) counts from the run step on (isolation/run; `./build.sh test` installs it).

Steps: build (build.sh, kernel-config/, payload/, report/'s default target, initramfs/, image/,
and any other folder), run (qemu/, isolation/, report/variability.sh, the measuring scripts in docs/), test (tests/, .ci/, report's fuzz
target). Usage: tests/deps.py [--drop PKG]... [--uses FILE] (--drop removes a package from the
lists first, to show the check failing; --uses FILE: the tree's uses and the failures found
while collecting them, as JSON, written when FILE does not exist and read instead of collecting
again when it does: the tree is scanned once for several --drop runs, 20-40 CPU s each). Output: "ok: ..." / "FAIL: <file> needs <package> ..." lines, then
"N passed, M failed". Exit 0 when nothing failed, 1 otherwise, 2 on a usage error.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
STEPS = ("build", "run", "test")
# Extra lists `./build.sh packages` prints, and the step from which each counts.
EXTRA_LISTS = {"arm64": "build", "layers": "run"}

# Makefiles, the goals each step builds and the variables it sets; a tracked Makefile missing
# here is a failure. The cross-built isobench-proc (build.sh's build_arm64: Debian's aarch64
# gcc against its arm64 glibc headers) is scanned with that compiler, so the headers the cross
# compiler only Recommends are checked against the arm64 list too. The arm64 runner's musl
# headers come from cross/sysroot.sh's unpacked packages, not from an installed one.
CROSS_CC = "aarch64-linux-gnu-gcc"
MAKE_GOALS = [
    ("build", "payload", [], []),
    ("build", "payload/proc", [], []),
    ("build", "payload/proc", [], ["CC=" + CROSS_CC]),
    ("build", "report", [], []),
    ("test", "report", ["fuzz"], []),
    ("test", "tests/unit", ["all"], []),
]
# Fragments included by a Makefile above (not run on their own), and the probe driver's kbuild
# Makefile, which only the kernel's build reads (kernel-config/build-kernel.sh).
MAKE_FRAGMENT = re.compile(r"^(tests/unit/Makefile\.[a-z]+|kernel-config/driver/Makefile)$")

# Which step a tracked file belongs to, by path prefix; the first match wins.
STEP_BY_PATH = [("tests/", "test"), (".ci/", "test"), ("qemu/", "run"), ("isolation/", "run"),
                ("report/variability.sh", "run"), ("docs/", "run"), ("", "build")]

# Commands that run the command that follows them, with the options they take a value for.
WRAPPERS = {
    "exec": set(), "command": set(), "time": set(), "nohup": set(), "setsid": set(),
    "sudo": {"-u", "-g"}, "env": {"-u", "-C"}, "nice": {"-n"}, "ionice": {"-c", "-n"},
    "stdbuf": set(), "taskset": set(), "xargs": {"-n", "-P", "-I", "-d", "-L", "-s", "-E"},
    "timeout": {"-k", "-s", "--kill-after", "--signal"},
}
WRAPPER_POSITIONAL = {"timeout": 1, "taskset": 1}  # a duration, a CPU mask
# A LAVA device's connection commands (lava-dispatcher's device dictionary keys), run by
# lava-run in the test step: lava-dispatcher only Recommends `telnet | telnet-client`, so an
# install without Recommends left `lava-run --validate` "Cannot find command 'telnet'".
LAVA_DEVICES = "lava/devices/"
# (plain, quoted or a list item; a block scalar, `connect: >-`, is not read)
LAVA_COMMAND = re.compile(r"(?m)^\s*(?:-\s+)?(?:connect|command):\s*[\"']?([\w.+/-]+)")
SHELL_WORDS = set("""if then else elif fi case esac for while until do done in function select
time coproc { } [[ ]] ! alias bg bind break builtin caller cd compgen complete compopt continue
declare dirs disown echo enable eval exit export false fc fg getopts hash help history jobs
kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift
shopt source suspend test times trap true type typeset ulimit umask unalias unset wait .
""".split())

results = {"pass": 0, "fail": 0}


def ok(msg):
    print("ok: " + msg)
    results["pass"] += 1


# The failures collect() reports, kept for --uses FILE (the runs that read the file report them too).
collect_fails = []


def bad(msg):
    print("FAIL: " + msg)
    results["fail"] += 1
    collect_fails.append(msg)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def step_of(path):
    for prefix, step in STEP_BY_PATH:
        if path.startswith(prefix):
            return step
    return "build"


def tracked_files():
    out = run(["git", "-C", TOP, "ls-files", "-co", "--exclude-standard"]).stdout.split()
    return [f for f in out if os.path.isfile(os.path.join(TOP, f))]


# --- packages -----------------------------------------------------------------------------

def package_lists(drop):
    """{step: [packages]} from `./build.sh packages`, minus the --drop ones."""
    res = run([os.path.join(TOP, "build.sh"), "packages"])
    if res.returncode != 0:
        bad("./build.sh packages failed: " + res.stderr.strip())
        return {s: [] for s in STEPS}
    lists = {}
    for line in res.stdout.splitlines():
        step, _, pkgs = line.partition(":")
        if step in STEPS or step in EXTRA_LISTS:
            lists[step] = [p for p in pkgs.split() if p not in drop]
    for s in list(STEPS) + list(EXTRA_LISTS):
        if s not in lists:
            bad(f"./build.sh packages printed no '{s}:' line")
            lists[s] = []
    return lists


def installed_packages():
    """{name: (essential, priority, provides, [dep clauses])} of installed packages."""
    fmt = "${Package}\t${db:Status-Abbrev}\t${Essential}\t${Priority}\t${Provides}\t" \
          "${Pre-Depends}\t${Depends}\n"
    pkgs = {}
    for line in run(["dpkg-query", "-W", "-f=" + fmt]).stdout.splitlines():
        name, status, ess, prio, prov, pre, dep = (line.split("\t") + [""] * 7)[:7]
        if not status.startswith("ii"):
            continue
        provides = [p.split()[0] for p in prov.split(",") if p.strip()]
        clauses = [c for c in (pre + "," + dep).split(",") if c.strip()]
        pkgs[name] = (ess == "yes", prio, provides, clauses)
    return pkgs


def closure(roots, pkgs):
    """Installed packages reachable from roots through Depends/Pre-Depends."""
    provider = {}
    for name, (_, _, provides, _) in pkgs.items():
        for v in provides:
            provider.setdefault(v, []).append(name)
    seen, todo = set(), list(roots)
    while todo:
        p = todo.pop()
        if p in seen or p not in pkgs:
            continue
        seen.add(p)
        for clause in pkgs[p][3]:
            for alt in clause.split("|"):
                n = alt.split()[0].split(":")[0] if alt.split() else ""
                cands = ([n] if n in pkgs else []) + provider.get(n, [])
                if cands:
                    todo.extend(cands)
                    break
    return seen


def owners(paths):
    """{path: [packages]} for each path dpkg knows, trying merged-/usr and symlink variants."""
    variants = {}
    for p in paths:
        vs = [p, os.path.realpath(p)]
        for v in list(vs):
            for a, b in (("/usr/bin/", "/bin/"), ("/usr/sbin/", "/sbin/"), ("/usr/lib/", "/lib/"),
                         ("/usr/lib64/", "/lib64/")):
                if v.startswith(a):
                    vs.append(b + v[len(a):])
                elif v.startswith(b):
                    vs.append(a + v[len(b):])
        variants[p] = list(dict.fromkeys(vs))
    known = {}
    allv = sorted({v for vs in variants.values() for v in vs})
    for i in range(0, len(allv), 500):
        for line in run(["dpkg", "-S"] + allv[i:i + 500]).stdout.splitlines():
            if line.startswith("diversion ") or ": " not in line:
                continue
            pk, _, path = line.partition(": ")
            known.setdefault(path, [x.strip().split(":")[0] for x in pk.split(",")])
    return {p: next((known[v] for v in vs if v in known), None) for p, vs in variants.items()}


# --- what the project uses ------------------------------------------------------------------

def make_commands(step, d, goals, tmp, variables=()):
    """Recipe lines `make -n -B` prints for a Makefile (VAR=VALUE variables given), continuation
    lines joined."""
    res = run(["make", "-n", "-B", "--no-print-directory", "-C", os.path.join(TOP, d),
               "O=" + tmp] + list(variables) + goals)
    if res.returncode != 0:
        bad(f"make -n -C {d} {' '.join(list(variables) + goals)} failed: "
            f"{res.stderr.strip()[:200]}")
        return []
    return res.stdout.replace("\\\n", " ").splitlines()


# A compiler command: gcc, cc, clang, g++, c++, musl-gcc, or a cross one (aarch64-linux-gnu-gcc).
COMPILERS = re.compile(r"^(?:\S*/)?(?:[\w.]+-)*(gcc|cc|clang|g\+\+|c\+\+)(-\d+)?$")


def compile_uses(step, d, line, uses):
    """Headers (-M) and -l libraries of one compiler command line."""
    import shlex
    try:
        argv = shlex.split(line)
    except ValueError:
        return
    if not argv or not COMPILERS.match(argv[0]):
        return
    cc, srcs, flags, libs, skip = argv[0], [], [], [], False
    cross = os.path.basename(cc) == CROSS_CC
    static = "-static" in argv
    for i, a in enumerate(argv[1:], 1):
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF"):
            skip = True
        elif a in ("-c", "-MMD", "-MP") or a.startswith("-W") and a.startswith("-Wl,"):
            continue
        elif a.startswith("-l"):
            libs.append(a[2:])
        elif a.endswith((".c", ".cc", ".S")):
            srcs.append(a)
        elif a.endswith((".o", ".a")):
            continue
        elif a.startswith("-"):
            flags.append(a)
    uses.append((step, f"{d}: {cc}", "program", cc))
    if srcs:
        # -MG: a header the build generates first (payload's gen/ring0_others.h) is not there
        # under `make -n`; it is taken as generated (it includes nothing of the system).
        res = run([cc] + flags + ["-M", "-MG"] + srcs, cwd=os.path.join(TOP, d))
        if res.returncode != 0:
            bad(f"{d}: {cc} -M {' '.join(srcs)} failed: {res.stderr.strip()[:300]}")
        for dep in res.stdout.replace("\\\n", " ").split():
            if dep.startswith("/") and not dep.startswith(TOP + "/"):
                where = f"{d}/{os.path.basename(srcs[0])}"
                if cross:
                    where += f" ({os.path.basename(cc)})"
                uses.append((step, where, "header", dep))
    for lib in libs:
        found = None
        for ext in ((".a",) if static else (".so", ".a")):
            p = run([cc] + flags + [f"-print-file-name=lib{lib}{ext}"]).stdout.strip()
            if p.startswith("/"):
                found = os.path.normpath(p)
                break
        if found:
            uses.append((step, f"{d}: {cc} -l{lib}", "library", found))
        else:
            bad(f"{d}: {cc} cannot find -l{lib}")


def strip_shell(text):
    """Shell text without comments, here-documents, array literals and quoted literals; the
    $(...) inside double quotes is kept, since it runs commands."""
    out, i, n = [], 0, len(text)
    heredocs = []
    while i < n:
        c = text[i]
        if c == "\\":
            out.append(text[i:i + 2])
            i += 2
        elif c == "'":
            j = text.find("'", i + 1)
            i = n if j < 0 else j + 1
            out.append(" '' ")
        elif c == '"':
            j, depth, keep = i + 1, 0, []
            while j < n and (text[j] != '"' or depth):
                if text[j] == "\\":
                    j += 1
                elif text.startswith("$(", j):
                    depth += 1
                    keep.append(" $( ")
                    j += 1
                elif text[j] == ")" and depth:
                    depth -= 1
                    keep.append(" ) ")
                elif depth:
                    keep.append(text[j])
                j += 1
            out.append(" " + "".join(keep) + " ")
            i = j + 1
        elif c == "#" and (i == 0 or text[i - 1] in " \t\n;(|&"):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("((", i) or text.startswith("$((", i):
            j = text.find("))", i)  # arithmetic: the names in it are variables
            i = n if j < 0 else j + 2
            out.append(" 0 ")
        elif text.startswith("<<", i) and not text.startswith("<<<", i):
            m = re.match(r"<<-?\s*(['\"]?)([A-Za-z_]\w*)\1", text[i:])
            if m:
                heredocs.append(m.group(2))
                i += m.end()
            else:
                out.append(c)
                i += 1
        elif c == "\n" and heredocs:
            out.append(c)
            i += 1
            while heredocs:
                end = re.compile(r"^[ \t]*" + re.escape(heredocs.pop(0)) + r"[ \t]*$", re.M)
                m = end.search(text, i)
                i = n if not m else m.end()
        elif c == "=" and text.startswith("=(", i):
            j = i + 2
            while j < n and text[j] != ")":
                if text[j] == "#" and text[j - 1] in " \t\n":
                    j = text.find("\n", j)
                    j = n if j < 0 else j
                    continue
                if text[j] in "'\"":
                    k = text.find(text[j], j + 1)
                    j = n if k < 0 else k
                j += 1
            i = j + 1
            out.append("=() ")
        else:
            out.append(c)
            i += 1
    return "".join(out)


# A case arm's patterns (`aws | gce)`, `'' | quick)`, on their own line or after `case X in`):
# words there are values compared, not commands run.
CASE_ARM = re.compile(r"(?m)(^|\bin\b)[ \t]*\(?[ \t]*(?:''|[\w.*?+-]+)"
                      r"(?:[ \t]*\|[ \t]*(?:''|[\w.*?+-]+))*[ \t]*\)(?!\))")


def shell_commands(text):
    """Words at command positions of shell text (see the module comment)."""
    text = CASE_ARM.sub(r"\1 ", strip_shell(text))
    funcs = set(re.findall(r"^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)", text, re.M))
    words = set(re.findall(r"\$\{[A-Za-z_]\w*:-([A-Za-z][\w.+-]*)\}", text))
    words |= set(re.findall(r"command\s+-v\s+([A-Za-z][\w.+-]*)", text))
    for seg in re.split(r"\n|;|\|\||&&|\||&|\$\(|`|\(|\)|\{|\}|\bthen\b|\bdo\b|\belse\b|\bif\b|"
                        r"\bwhile\b|\buntil\b|\b!\s", text):
        toks = seg.split()
        i = 0
        while i < len(toks):
            t = toks[i]
            if re.match(r"^[A-Za-z_]\w*(\[[^]]*\])?\+?=", t) or re.match(r"^\d*[<>]", t):
                i += 1
                continue
            if t in WRAPPERS:
                words.add(t)
                i += 1
                n_pos = WRAPPER_POSITIONAL.get(t, 0)
                while i < len(toks) and (toks[i].startswith("-") or "=" in toks[i] and t == "env"):
                    i += 2 if toks[i] in WRAPPERS[t] else 1
                i += n_pos
                continue
            if re.match(r"^[A-Za-z][\w.+-]*$", t):
                words.add(t)
            break
    return {w for w in words if w not in SHELL_WORDS and w not in funcs}


ABS_PATH = re.compile(r"(?<![\w.$}])((?!/usr/local)(?:/usr|/lib|/lib64|/bin|/sbin)/[\w.+*/-]+)")


def abs_paths(text):
    """Existing system files named by absolute path (globs expanded) in a file's text."""
    found = set()
    for p in ABS_PATH.findall(text):
        p = p.rstrip("/.")
        for g in (glob.glob(p) if "*" in p else [p]):
            if os.path.isfile(g) or os.path.isdir(g) and g.count("/") >= 3:
                found.add(g)
    return found


def which(word):
    """(system path or None, other path or None) of an executable named word."""
    sysp = shutil.which(word, path=SYSTEM_PATH)
    return sysp, (None if sysp else shutil.which(word))


def collect(tmp):
    """[(step, where, kind, path)] of everything the project takes from the system."""
    uses = []
    spec_origin = {}    # module name: (status, origin) of /usr/bin/python3's find_spec
    files = tracked_files()
    makefiles = {f for f in files if os.path.basename(f).startswith("Makefile")}
    known = {os.path.join(d, "Makefile") for _, d, _, _ in MAKE_GOALS}
    for f in sorted(makefiles - known):
        if not MAKE_FRAGMENT.match(f):
            bad(f"{f}: a Makefile the dependency check does not know; add it to MAKE_GOALS")
    for step, d, goals, variables in MAKE_GOALS:
        for line in make_commands(step, d, goals, tmp, variables):
            compile_uses(step, d, line.lstrip("@ "), uses)
            for w in shell_commands(line):
                uses.append((step, f"{d}/Makefile", "program", w))
    for f in files:
        full = os.path.join(TOP, f)
        try:
            with open(full, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue
        step = step_of(f)
        # a script (its #! line), or a part another sources (qemu/lib/*.sh, lib/sh/*.sh: its first
        # line the "# shellcheck shell=bash" directive)
        is_shell = re.match(r"#!.*\b(ba)?sh\b|# shellcheck shell=(ba)?sh\b", text[:64]) is not None
        if is_shell:
            for w in shell_commands(text):
                uses.append((step, f, "program", w))
        if is_shell or f.endswith((".c", ".h", ".py")) or os.path.basename(f).startswith("Makefile"):
            for p in abs_paths(text):
                uses.append((step, f, "file", p))
        if f.startswith(LAVA_DEVICES) and f.endswith(".yaml"):
            for w in LAVA_COMMAND.findall(text):
                uses.append(("test", f, "command", w))
        if f.endswith(".py"):
            mods = set(re.findall(r"^\s*import\s+([\w, ]+)", text, re.M))
            mods = {m.strip().split(".")[0] for grp in mods for m in grp.split(",")} | \
                set(re.findall(r"^\s*from\s+(\w+)[\w.]*\s+import", text, re.M))
            for m in sorted(mods):
                d, own = os.path.dirname(f), False
                while not own:  # the tree's own module beside the script or in a folder above
                    own = os.path.isfile(os.path.join(TOP, d, m + ".py"))  # it (tests/seal.py)
                    if not d:
                        break
                    d = os.path.dirname(d)
                if own:
                    continue
                # Where /usr/bin/python3 finds the module depends on its name alone: asked
                # once per name: 21 interpreters, not 41 (one per file and import; ~0.8 CPU s).
                if m not in spec_origin:
                    res = run(["/usr/bin/python3", "-c",
                               f"import importlib.util as u; s = u.find_spec({m!r}); "
                               "print(s.origin if s else '')"])
                    spec_origin[m] = (res.returncode, res.stdout.strip())
                rc, origin = spec_origin[m]
                if rc != 0 or not origin:
                    bad(f"{f}: Python module {m} is not importable by /usr/bin/python3")
                elif origin.startswith("/"):
                    uses.append((step, f, "python module", origin))
            uses.append((step, f, "program", "python3"))
    return uses


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--drop", action="append", default=[], metavar="PKG",
                    help="remove PKG from build.sh's lists first (to see the check fail)")
    ap.add_argument("--uses", metavar="FILE",
                    help="the collected uses: written when FILE is absent, else read (JSON)")
    args = ap.parse_args()

    lists = package_lists(set(args.drop))
    pkgs = installed_packages()
    base = [n for n, (ess, prio, _, _) in pkgs.items() if ess or prio == "required"]
    allowed, roots = {}, list(base)
    for s in STEPS:
        extra = [p for e, at in EXTRA_LISTS.items() if at == s for p in lists[e]]
        for p in lists[s] + extra:
            if p not in pkgs:
                bad(f"build.sh lists {p} ({s}) but it is not installed here; run ./build.sh test")
        roots += lists[s] + extra
        allowed[s] = closure(roots, pkgs)

    if args.uses and os.path.exists(args.uses):
        with open(args.uses, encoding="utf-8") as fh:
            saved = json.load(fh)
        uses = [tuple(u) for u in saved["uses"]]
        for msg in saved["fails"]:
            bad(msg)
    else:
        del collect_fails[:]
        with tempfile.TemporaryDirectory() as tmp:
            uses = collect(tmp)
        if args.uses:
            with open(args.uses, "w", encoding="utf-8") as fh:
                json.dump({"uses": uses, "fails": collect_fails}, fh)

    # Resolve programs to paths; remember the ones found only outside the system PATH.
    resolved = []
    for step, where, kind, what in uses:
        if kind in ("program", "command"):
            sysp, other = which(what)
            if other:
                bad(f"{where} calls {what}, found only at {other}: no Debian package provides it")
            elif not sysp and kind == "command":
                bad(f"{where}: command {what} is not installed here; add its package to the "
                    f"{step} list")
            if not sysp:
                continue
            resolved.append((step, where, f"{kind} {what}", sysp))
        else:
            resolved.append((step, where, kind, what))
    own = owners(sorted({p for _, _, _, p in resolved}))

    # One verdict per (step, path): the earliest step that uses it decides.
    first = {}
    for step, where, what, path in resolved:
        key = path
        if key not in first or STEPS.index(step) < STEPS.index(first[key][0]):
            first[key] = (step, where, what)
    for path in sorted(first):
        step, where, what = first[path]
        shown = f"{what} {path}" if what in ("header", "library", "file", "python module") \
            else f"{what} ({path})"
        pks = own.get(path) or []
        pk = next((p for p in pks if p in allowed[step]), pks[0] if pks else None)
        if pk is None:
            bad(f"{where}: {shown} belongs to no Debian package")
        elif pk in allowed[step]:
            ok(f"{step}: {shown} <- {pk}")
        else:
            later = next((s for s in STEPS if any(p in allowed[s] for p in pks)), None)
            hint = f"listed for '{later}', too late" if later else "in no list"
            into = "arm64" if f"({CROSS_CC})" in where else step
            bad(f"{where}: {shown} needs package {pk}, which build.sh does not install "
                f"before the {step} step ({hint}); add it to the {into} list")
    print(f"{results['pass']} passed, {results['fail']} failed")
    return 1 if results["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
