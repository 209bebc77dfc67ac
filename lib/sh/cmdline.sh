# shellcheck shell=bash
# lib/sh/cmdline.sh — the kernel command line's common words as a file holds them (image/cmdline:
# the boot entries' console and log-level words, their one owner; image/cmdline.aarch64: arm64's
# additions), read the same way by image/build-iso.sh (every menu entry) and qemu/run's
# qemu/lib/image.sh (-append, a throw-away ISO's entries). Sourced, not run.
#
# cmdline_words FILE: FILE's words on one line, one space between them, lines starting with #
# dropped. Status (under pipefail, as both callers run): non-zero when FILE cannot be read or
# holds no line but comments (grep's 2 or 1), with nothing printed.
cmdline_words() { grep -v '^#' "$1" 2>/dev/null | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }
