#!/usr/bin/env bash
# lava/make-jobs.sh OUTDIR NETBOOT [BASE_URL] — LAVA job definitions for one built image.
#
# In:  NETBOOT, a tree from image/build-netboot.sh (its pxelinux.cfg/default is the ISO's
#      menu, its isobench/ the ISO's kernel, initramfs and IDENTITY); BASE_URL, where that
#      tree is served to the LAVA worker (default file://<NETBOOT, absolute>: lava-run on this
#      machine); the templates lava/isobench-*.yaml and lava/monitors.yaml.
# Out: OUTDIR/isobench-qemu.yaml (device type qemu) and OUTDIR/isobench-x86-ipxe.yaml (device
#      type x86, iPXE), ready for `lavacli jobs submit` or `lava-run`; their kernel command
#      line is the menu's default entry (the one template, image/isolinux.cfg), the monitors
#      test action the one in lava/monitors.yaml.
# Errors: exits 1 with one line "make-jobs: <reason>" on stderr; 2 on a usage error.
set -euo pipefail

# shellcheck source=../lib/sh/die.sh
. "$(dirname "$0")/../lib/sh/die.sh" # die: "make-jobs: MSG", exit 1
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: lava/make-jobs.sh OUTDIR NETBOOT [BASE_URL]" >&2
	exit 2
fi
dest=$1 nb=$2
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$nb/pxelinux.cfg/default" ] || die "no $nb/pxelinux.cfg/default (image/build-netboot.sh makes it)"
[ -f "$nb/isobench/IDENTITY" ] || die "no $nb/isobench/IDENTITY"
base=${3:-file://$(cd "$nb" && pwd)}
base=${base%/}
url_re='^(https?|file|tftp)://[^][:space:]"\\&'"'"'[]+$'
[[ "$base" =~ $url_re ]] || die "BASE_URL must be an http(s)://, file:// or tftp:// URL without spaces, quotes, & or backslashes, got '$base'"
id=$(head -n 1 "$nb/isobench/IDENTITY")
append=$(awk '/^DEFAULT /{d=$2} /^LABEL /{l=$2} /^ *APPEND /&&l==d{sub(/^ *APPEND /,""); print; exit}' \
	"$nb/pxelinux.cfg/default")
[ -n "$append" ] || die "no APPEND line for the default entry in $nb/pxelinux.cfg/default"
[[ "$append" != *[\"\\\&\|]* ]] || die "the command line holds a character the job templates cannot quote: $append"
no_serial=$(tr ' ' '\n' <<<"$append" | grep -v '^console=ttyS' | paste -sd ' ')

mkdir -p "$dest"
for job in isobench-qemu isobench-x86-ipxe; do
	awk -v id="$id" -v base="$base" -v append="$append" -v noser="$no_serial" -v mon="$here/monitors.yaml" '
		/^@MONITORS@$/ {
			while ((getline l < mon) > 0) if (l !~ /^#/) print "    " l
			next
		}
		{ gsub(/@ID@/, id); gsub(/@BASE_URL@/, base); gsub(/@APPEND_NO_SERIAL@/, noser); gsub(/@APPEND@/, append); print }
	' "$here/$job.yaml" >"$dest/$job.yaml.tmp"
	! grep -q '@[A-Z_]*@' "$dest/$job.yaml.tmp" || die "unreplaced placeholder in $job.yaml"
	mv "$dest/$job.yaml.tmp" "$dest/$job.yaml"
done
