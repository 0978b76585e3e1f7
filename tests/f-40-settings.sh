#!/bin/sh
# Every setting the harness reads is written down: each WB_ variable used
# in vm/, the guest's scripts or the tests, and each make variable of the
# Makefile, is named in docs/authoring.rst's Settings (or its list of
# internal names), and make help names the ones a student types.
set -u
. "$(dirname "$0")/lib.sh"
cd "$WB_ROOT" || exit 1

missing=$(grep -rhoE 'WB_[A-Z][A-Z0-9_]*' vm/*.sh vm/guest/init vm/guest/*.sh tests/*.sh Makefile |
	sed 's/^WB_EXIT_.*/WB_EXIT_/' | sort -u | while read -r v; do
		grep -q "\b$v" docs/authoring.rst || printf ' %s' "$v"
	done)
if [ -z "$missing" ]; then
	t_ok "every WB_ variable of the harness is in docs/authoring.rst"
else
	t_fail "every WB_ variable of the harness is in docs/authoring.rst" "missing:$missing"
fi

missing=
for v in LAB RUN ACCEL WB_PAUSED VARIANT N EDITION FORMAT; do
	make -s help | grep -q "\\b$v\\b" || missing="$missing $v"
done
if [ -z "$missing" ]; then
	t_ok "make help names the settings a student types"
else
	t_fail "make help names the settings a student types" "missing:$missing"
fi
t_done
