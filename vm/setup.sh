#!/bin/sh
# Install the Debian packages of vm/packages that are missing. As root it
# runs apt-get; otherwise it says which command to run.
set -eu
. "$(dirname "$0")/lib.sh"

wanted=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$WB_ROOT/vm/packages")
missing=
for p in $wanted; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	wb_die "missing Debian packages:$missing. Install them with: sudo apt-get install$missing"
fi
wb_step "installing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! apt-get install -y -q --no-install-recommends $missing >&2; then
	apt-get update -q >&2 || wb_die "apt-get update failed"
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >&2 ||
		wb_die "apt-get could not install:$missing"
fi
