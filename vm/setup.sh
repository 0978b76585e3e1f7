#!/bin/sh
# Install the Debian packages of vm/packages that are missing. As root it
# runs apt-get; otherwise it says which command to run.
#
#   vm/setup.sh [NAME...|--all]
#
# The packages before vm/packages' first "## for NAME" line are every
# lab's; those after one are only for the lab NAME (tour-arch's cross
# compilers and emulators), installed when NAME is given (make lab
# LAB=NAME, make check LAB=NAME) or with --all (make check, make soak),
# so that make start does not wait for them.
set -eu
. "$(dirname "$0")/lib.sh"

wanted=$(awk -v names=" $* " '
	/^## for / { group = $3; next }
	{ sub(/#.*/, "") }
	/^[[:space:]]*$/ { next }
	group == "" || names ~ " --all " || index(names, " " group " ") { print $1 }' "$WB_ROOT/vm/packages")
# One dpkg-query for the whole list: a package it does not know is not
# printed at all, so the missing ones are those absent from its answer.
# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${Package} ${Status}\n' $wanted 2>/dev/null |
	awk '/ install ok installed$/ { printf " %s", $1 } END { print " " }')
missing=
for p in $wanted; do
	case $installed in
	*" $p "*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	wb_die "missing Debian packages:$missing. Install them with: sudo apt-get install$missing"
fi
wb_step "installing Debian packages:$missing"
# What each is for: the comment of its group in vm/packages.
awk -v want="$missing " '
	/^#/ { why = $0; sub(/^#+[[:space:]]*/, "", why); next }
	/^[[:space:]]*$/ { next }
	{ sub(/[[:space:]]*#.*/, ""); if (index(want, " " $1 " ")) printf "    %-22s %s\n", $1, why }
' "$WB_ROOT/vm/packages" >&2
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! apt-get install -y -q --no-install-recommends $missing >&2; then
	apt-get update -q >&2 || wb_die "apt-get update failed"
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >&2 ||
		wb_die "apt-get could not install:$missing"
fi
