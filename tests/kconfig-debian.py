#!/usr/bin/env python3
"""tests/kconfig-debian.py — our built kernels against Debian's cloud kernel, symbol by symbol.

Usage: tests/kconfig-debian.py [--fragments DIR] [--list FILE] ARCH=OURS[=DEBIAN]...
  ARCH    x86_64 or aarch64 (the fragment DIR/arch/ARCH.config is that kernel's)
  OURS    our built kernel's .config (out/kernel.config, out/arm64/kernel.config)
  DEBIAN  Debian's configuration for it, plain or .xz. Default: Debian's cloud kernel of OURS's
          series (major.minor, from its "# Linux/<arch> X.Y.Z Kernel Configuration" line), from
          package linux-config-X.Y: x86_64
          /usr/src/linux-config-X.Y/config.amd64_none_cloud-amd64.xz (build.sh's test list
          installs it); aarch64 the same folder's
          config.arm64_none_cloud-arm64.xz in the arm64 sysroot (cross/sysroot.sh unpacks it into
          $ISOBENCH_CACHE/sysroot/arm64, build.sh's build_arm64; ISOBENCH_CACHE defaults to
          $XDG_CACHE_HOME/isobench, ~/.cache/isobench)
  --fragments DIR  the kernel-config folder (default: the repository's); DIR/isobench.config
                   and DIR/arch/ARCH.config are where reasons are written
  --list FILE      the compared symbols (default DIR/vm-cost.symbols; its header is the rule)
Output: one line per symbol and architecture, "ok: ..." or "FAIL: ...", then "N passed, M failed".
FAIL when a listed symbol differs from Debian's with no reason written (a comment line starting
"# Unlike Debian's cloud kernel:" and a reason, in the heading comment of the symbol's group of
lines in one of that architecture's fragments: kernel-config/vm-cost.symbols says the rule);
when a symbol the list says an architecture needs is not y there; when a reason is written
for a symbol that matches Debian's on every architecture its fragment serves (all of them
given: a stale reason); when a listed symbol is named in none of the configs, all
architectures given (a typo in the list). A symbol named in neither config of one
architecture is not that architecture's: not compared there.
Exit 0 when nothing failed, 1 otherwise, 2 on a usage error or an unreadable file.
"""
import argparse
import lzma
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = "# Unlike Debian's cloud kernel:"
ARCHES = ("x86_64", "aarch64")
LINE = re.compile(r"^(CONFIG_[A-Za-z0-9_]+)=(.*)$")
UNSET = re.compile(r"^# (CONFIG_[A-Za-z0-9_]+) is not set$")


def read_text(path):
    """The file's text; an .xz file decompressed. OSError/LZMAError go to the caller."""
    if path.endswith(".xz"):
        with lzma.open(path, "rt") as f:
            return f.read()
    with open(path) as f:
        return f.read()


# Debian's name for each architecture and the root its linux-config package is found under.
DEBIAN_ARCH = {"x86_64": "amd64", "aarch64": "arm64"}
SERIES = re.compile(r"^# Linux/\S+ (\d+\.\d+)\.\d+\S* Kernel Configuration$", re.M)


def debian_config(arch, ours):
    """The default DEBIAN for OURS (see the usage); ValueError when OURS names no series."""
    m = SERIES.search(read_text(ours))
    if not m:
        raise ValueError("%s: no '# Linux/<arch> X.Y.Z Kernel Configuration' line" % ours)
    root = "/"
    if arch != "x86_64":
        cache = os.environ.get("ISOBENCH_CACHE") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "isobench")
        root = os.path.join(cache, "sysroot", DEBIAN_ARCH[arch])
    deb = DEBIAN_ARCH[arch]
    return os.path.join(root, "usr/src/linux-config-%s" % m.group(1),
                        "config.%s_none_cloud-%s.xz" % (deb, deb))


def read_config(path):
    """A .config as {symbol: value}: 'y' for y and m, 'n' for "is not set", else the value."""
    vals = {}
    for line in read_text(path).splitlines():
        m = LINE.match(line)
        if m:
            vals[m.group(1)] = "y" if m.group(2) in ("y", "m") else m.group(2)
            continue
        m = UNSET.match(line)
        if m:
            vals[m.group(1)] = "n"
    return vals


def read_list(path):
    """The list: [(symbol, set of ARCH that need it)], in file order."""
    out = []
    for n, line in enumerate(read_text(path).splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        bad = [a for a in words[1:] if a not in ARCHES]
        if not LINE.match(words[0] + "=") or bad:
            raise ValueError("%s:%d: not 'CONFIG_NAME [ARCH...]' (ARCH: %s): %s"
                             % (path, n, ", ".join(ARCHES), line))
        out.append((words[0], set(words[1:])))
    return out


def reasons(path):
    """A fragment's written reasons: {symbol: reason} for each CONFIG_ line (set or =n) whose
    group's heading has a comment line starting MARK. A group: CONFIG_ lines below one block of
    comment lines (its heading), with no blank line anywhere in it; one reason may so cover
    several symbols. The reason is the heading's text from MARK on."""
    lines = read_text(path).splitlines()
    found = {}
    for i, line in enumerate(lines):
        m = LINE.match(line)
        if not m:
            continue
        j, heading = i - 1, False
        while j >= 0 and lines[j].strip():
            if not lines[j].startswith("#"):
                if heading:
                    break   # the group's heading ended: a line of the group above
                j -= 1
                continue
            heading = True
            if lines[j].startswith(MARK) and lines[j][len(MARK):].strip():
                text = [lines[j][len(MARK):]]
                k = j + 1
                while k < i and lines[k].startswith("#"):
                    text.append(lines[k][1:])
                    k += 1
                found[m.group(1)] = " ".join(" ".join(text).split())
                break
            j -= 1
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fragments", default=os.path.join(TOP, "kernel-config"))
    ap.add_argument("--list")
    ap.add_argument("kernels", nargs="+", metavar="ARCH=OURS[=DEBIAN]")
    a = ap.parse_args()
    try:
        symbols = read_list(a.list or os.path.join(a.fragments, "vm-cost.symbols"))
        shared = os.path.join(a.fragments, "isobench.config")
        shared_why = reasons(shared)
        kernels = []
        for k in a.kernels:
            parts = k.split("=", 2)
            if len(parts) < 2 or parts[0] not in ARCHES:
                ap.error("'%s' is not ARCH=OURS[=DEBIAN] (ARCH: %s)" % (k, ", ".join(ARCHES)))
            arch, ours = parts[:2]
            deb = parts[2] if len(parts) == 3 else debian_config(arch, ours)
            print("%s: ours %s, Debian's %s" % (arch, ours, deb))
            own = os.path.join(a.fragments, "arch", arch + ".config")
            kernels.append((arch, read_config(ours), read_config(deb), reasons(own), own))
    except (OSError, ValueError, lzma.LZMAError) as e:
        print("kconfig-debian: %s" % e, file=sys.stderr)
        return 2
    passed = failed = 0

    def verdict(ok, text):
        nonlocal passed, failed
        print(("ok: " if ok else "FAIL: ") + text)
        passed += ok
        failed += not ok

    differs = {}    # (fragment, symbol) -> whether it differed on some architecture compared
    compared = {k[0] for k in kernels}
    for sym, _ in symbols:  # a typo: known on no architecture (judged when all are given)
        if compared == set(ARCHES) and all(sym not in k[1] and sym not in k[2] for k in kernels):
            verdict(False, "%s: in none of the configs (a typo in the list?)" % sym)
    for arch, ours, deb, own_why, own in kernels:
        for sym, need in symbols:
            o, d = ours.get(sym, "n"), deb.get(sym, "n")
            if sym not in ours and sym not in deb and arch not in need:
                continue    # not a symbol of this architecture
            if arch in need and o != "y":
                verdict(False, "%s %s=%s: vm-cost.symbols says the %s kernel needs it (y)"
                        % (arch, sym, o, arch))
            why = own_why.get(sym) or shared_why.get(sym)
            for frag, fwhy in ((own, own_why), (shared, shared_why)):
                if sym in fwhy:
                    differs[(frag, sym)] = differs.get((frag, sym), False) or o != d
            if o == d:
                verdict(True, "%s %s=%s, as Debian's" % (arch, sym, o))
            elif why:
                verdict(True, "%s %s=%s, Debian's %s; reason: %s" % (arch, sym, o, d, why))
            else:
                verdict(False, "%s %s=%s but Debian's cloud kernel has %s, and no '%s' reason "
                        "above its line in %s or %s" % (arch, sym, o, d, MARK,
                                                                  os.path.basename(own),
                                                                  os.path.basename(shared)))
    # A reason above a symbol that matches everywhere it applies is stale. The shared
    # fragment serves every architecture: judged only when all of them were compared.
    for (frag, sym), did in sorted(differs.items()):
        if frag == shared and compared != set(ARCHES):
            continue
        if not did:
            verdict(False, "%s: a reason is written above %s but it matches Debian's cloud "
                    "kernel on %s" % (os.path.basename(frag), sym,
                                      ", ".join(sorted(compared)) if frag == shared else
                                      os.path.basename(frag)[:-len(".config")]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
