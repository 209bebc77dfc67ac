#!/usr/bin/env bash
# tests/fresh-root.sh — the README's promise, from nothing: a minimal Debian root made with
# debootstrap (--variant=minbase: Essential and Priority: required packages plus apt, nothing
# else), this checkout copied in, then the README's two commands run inside it as root:
#   ./build.sh run --suite quick      (installs the build and run packages, cold kernel build)
#   ./build.sh test                   (installs the test packages, runs every suite)
# Each command's wall time is printed ("time: ..."), then "N passed, M failed".
#
# Opt-in (it downloads ~1 GB of packages and takes 20-40 min): `tests/run fresh`, or
# ISOBENCH_FRESH=1 tests/run to add it to the whole suite. Needs root and network access to the
# Debian archive that this machine's apt sources point at; that archive is read from the apt
# configuration (apt-get indextargets), and the host's apt sources and settings are copied into
# the root so that it reaches the archive the same way. No mirror address is written here.
# Environment: ISOBENCH_FRESH_DIR (default /var/tmp/isobench-fresh) where the root is made;
# ISOBENCH_FRESH_KEEP=1 keeps it afterwards (its logs are in $DIR/root/fresh-*.log).
# Exit status: 0 when both commands succeed, 1 otherwise, 2 when it cannot start (not root,
# no archive found, debootstrap failed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"

dir=${ISOBENCH_FRESH_DIR:-/var/tmp/isobench-fresh}
root=$dir/root
die_status=2 # lib.sh's die: "fresh-root: MSG", status 2 (it cannot start)

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mounts)"
command -v debootstrap >/dev/null || die "debootstrap not found (apt-get install debootstrap)"
. /etc/os-release
suite=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}

# The archive: the first apt source that serves this release's main component.
# shellcheck disable=SC2016 # $(...) here is apt's template syntax, not the shell's
mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 'Created-By: Packages' 2>/dev/null |
	awk -v s="$suite" '$2 == s && $3 == "main" { print $1; exit }') || true	# none: said below
[ -n "$mirror" ] || die "no apt source serves '$suite main' (run apt-get update first)"

unmount_all() {
	local m
	# Deepest first; a bind of the host's /dev must never be deleted through.
	while read -r m; do umount -l "$m" 2>/dev/null || true; done < <(findmnt -rn -o TARGET | grep -F "$root/" | sort -r)
}
remove_root() {
	unmount_all
	if [ "${ISOBENCH_FRESH_KEEP:-0}" != 1 ]; then
		if findmnt -rn -o TARGET | grep -qF "$root/"; then
			echo "fresh-root: mounts remain under $root; not removing it" >&2
		else
			rm -rf "$dir"
		fi
	fi
}
at_exit remove_root

unmount_all
rm -rf "$dir"
mkdir -p "$dir" || die "cannot make $dir"
echo "fresh-root: debootstrap --variant=minbase $suite (archive from the apt configuration)"
t0=$(date +%s)
debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$dir/debootstrap.log" 2>&1 ||
	{ tail -n 5 "$dir/debootstrap.log" >&2; die "debootstrap failed (see above)"; }
echo "time: debootstrap $(($(date +%s) - t0)) s, $(chroot "$root" dpkg-query -W | wc -l) packages"

# The host's apt sources and settings (same archive, same access), and name resolution.
rm -f "$root"/etc/apt/sources.list "$root"/etc/apt/sources.list.d/*
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ ! -f "$f" ] || cp "$f" "$root$f"
done
cp /etc/apt/apt.conf.d/* "$root/etc/apt/apt.conf.d/" 2>/dev/null || true	# settings, if the host has any
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# Keyrings a copied source names by Signed-By.
{ grep -rhoE 'Signed-By: *[^ ]+|signed-by=[^] ]+' "$root/etc/apt/" 2>/dev/null || true; } | sed 's/.*[:=] *//' | sort -u |
	while read -r k; do
		if [ -f "$k" ] && [ ! -f "$root$k" ]; then mkdir -p "$(dirname "$root$k")" && cp "$k" "$root$k"; fi
	done

if ! { mount -t proc proc "$root/proc" && mount -t sysfs sys "$root/sys" &&
	mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" &&
	mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"; }; then
	die "cannot mount /proc, /sys, /dev, /tmp in the root"
fi
# /dev/shm of the root must be its own tmpfs (the native tests make files there).
mount -t tmpfs -o mode=1777 shm "$root/dev/shm" || die "cannot mount /dev/shm in the root"

# The checkout: committed state plus the working tree's changes, as a user's clone would be.
mkdir -p "$root/root/isobench"
git -C "$top" ls-files -co --exclude-standard -z | (cd "$top" && tar --null -T - -cf -) |
	tar -xf - -C "$root/root/isobench" || die "cannot copy the checkout"
cp -a "$top/.git" "$root/root/isobench/.git" || die "cannot copy .git"

in_root() {
	chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "cd /root/isobench && $1"
}

t0=$(date +%s)
rc=0
in_root './build.sh run --suite quick' >"$root/root/fresh-run.log" 2>&1 || rc=$?
t_run=$(($(date +%s) - t0))
echo "time: ./build.sh run --suite quick: $t_run s (status $rc)"
if [ $rc -eq 0 ] && grep -q 'System Benchmarks Index Score' "$root/root/fresh-run.log"; then
	ok "fresh root: ./build.sh run --suite quick printed an index score and exited 0"
else
	tail -n 20 "$root/root/fresh-run.log"
	bad "fresh root: ./build.sh run --suite quick (status $rc)"
fi

t0=$(date +%s)
rc=0
in_root './build.sh test' >"$root/root/fresh-test.log" 2>&1 || rc=$?
t_test=$(($(date +%s) - t0))
last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$root/root/fresh-test.log" | tail -n 1) || true
echo "time: ./build.sh test: $t_test s (status $rc): $last"
if [ $rc -eq 0 ] && [[ $last =~ ^[1-9][0-9]*\ passed,\ 0\ failed ]]; then
	ok "fresh root: ./build.sh test passed ($last)"
else
	sed -n '/^=== summary/,$p' "$root/root/fresh-test.log" | tail -n 25
	grep -E '^FAIL' "$root/root/fresh-test.log" | head -n 20 || true
	bad "fresh root: ./build.sh test (status $rc)"
fi
# What the two commands installed, for the notes.
echo "packages in the root afterwards: $(chroot "$root" dpkg-query -W | wc -l)"
finish
