#!/bin/sh
# The sandbox of every build of student code (wb_jail, vm/lib.sh), with
# no kernel: what it hides, its time limit, and its disk budget
# (WB_JAIL_DISK), whose copies in and out must keep what a build makes
# and what the harness writes beside it.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d) || exit 1
secret=$HOME/.wb-f30-secret.$$
trap 'rm -rf "$tmp" "$secret"' EXIT
echo "f30-secret-$$" >"$secret"
mkdir -p "$tmp/ro" "$tmp/rw"

# The sandbox sees /usr and the folders it is given, nothing of home.
rc=0
wb_jail 10 "$tmp/ro" "$tmp/rw" cat "$secret" >"$tmp/peek.out" 2>&1 || rc=$?
if [ "$rc" != 0 ] && ! grep -q "f30-secret-$$" "$tmp/peek.out"; then
	t_ok "a build cannot read a file of the grading user's home"
else
	t_fail "a build cannot read a file of the grading user's home" "status $rc: $(cat "$tmp/peek.out")"
fi
rc=0
wb_jail 10 "$tmp/ro" "$tmp/rw" sh -c "echo x >$tmp/ro/w" 2>/dev/null || rc=$?
t_nonzero "the read-only folders cannot be written" "$rc"

start=$(date +%s)
rc=0
wb_jail 2 "" "$tmp/rw" sleep 30 || rc=$?
took=$(($(date +%s) - start))
if [ "$rc" = 124 ] && [ "$took" -lt 10 ]; then
	t_ok "a build past its time limit is stopped, status 124 ($took s)"
else
	t_fail "a build past its time limit is stopped, status 124" "status $rc after $took s"
fi

# The disk budget: a build that writes more fails, and leaves no more.
export WB_JAIL_DISK=1048576
rc=0
wb_jail 10 "" "$tmp/rw" sh -c "head -c 4000000 /dev/zero >$tmp/rw/big" 2>"$tmp/big.err" || rc=$?
used=$(du -sk "$tmp/rw" | cut -f1)
if [ "$rc" != 0 ] && grep -q 'No space left' "$tmp/big.err" && [ "$used" -le 1100 ]; then
	t_ok "a build that writes past WB_JAIL_DISK fails and leaves $used KiB (budget 1024)"
else
	t_fail "a build that writes past WB_JAIL_DISK fails and leaves at most the budget" \
		"status $rc, $used KiB" "$(cat "$tmp/big.err")"
fi
rc=0
wb_jail 10 "" "$tmp/rw" sh -c "head -c 4000000 /dev/zero >/tmp/big" 2>/dev/null || rc=$?
t_nonzero "its /tmp has the same budget" "$rc"

# What it makes comes back, modes kept; the host's own log of the build
# (written by the caller's redirection) is not overwritten by the
# sandbox's stale copy; an out/ folder of another user stays as it is.
rm -rf "$tmp/rw"
mkdir -p "$tmp/rw/out"
echo guest >"$tmp/rw/out/x"
chown -R nobody "$tmp/rw/out" 2>/dev/null || :
rc=0
wb_jail 10 "" "$tmp/rw" sh -c "printf '#!/bin/sh\necho made\n' >$tmp/rw/prog && chmod 755 $tmp/rw/prog &&
	mkdir -p $tmp/rw/sub/.hidden && echo deep >$tmp/rw/sub/.hidden/f && echo said; echo warned >&2" \
	>"$tmp/rw/build.log" 2>&1 || rc=$?
if [ "$rc" = 0 ] && [ "$("$tmp/rw/prog")" = made ] && [ "$(cat "$tmp/rw/sub/.hidden/f")" = deep ] &&
	[ "$(cat "$tmp/rw/build.log")" = "$(printf 'said\nwarned')" ] &&
	[ "$(cat "$tmp/rw/out/x")" = guest ]; then
	t_ok "what the build made comes back (modes, hidden files), its log and the guest's out/ stay"
else
	t_fail "what the build made comes back, its log and the guest's out/ stay" "status $rc" \
		"$(find "$tmp/rw" -printf "%M %u %p\n" 2>&1 | head -n 30)" "log: $(cat "$tmp/rw/build.log")"
fi
unset WB_JAIL_DISK
t_done
