#!/bin/sh
# make new-lab: the scaffold it writes passes make check LAB= as it is
# (solution passes, skeleton fails, gdb sees the module load), its module
# is kernel style, and a bad or taken name is refused. The scaffold is
# written into copies of labs/ and solutions/, so that the kernel's
# config fragments stay those of the checkout (no reconfiguration) and
# the checkout is not touched.
set -u
. "$(dirname "$0")/lib.sh"
t_plan 7
tmp=$(mktemp -d)
name=wb-scaffold-probe
trap 'rm -rf "$tmp" "$WB_CACHE/labs/$name" "$WB_CACHE/run/check-$name-"*' EXIT
cp -r "$WB_LABS" "$tmp/labs"
cp -r "$WB_SOLUTIONS" "$tmp/solutions"
mkdir -p "$tmp/book"
cp "$WB_ROOT/index.rst" "$tmp/book/"
export WB_LABS="$tmp/labs" WB_SOLUTIONS="$tmp/solutions" WB_BOOK_ROOT="$tmp/book"

rc=0
out=$("$WB_ROOT/vm/newlab.sh" "$name" 07 2>&1) || rc=$?
if [ "$rc" = 0 ] && [ -f "$WB_LABS/$name/lab.mk" ] && [ -f "$WB_SOLUTIONS/$name/solution.rst" ]; then
	t_ok "make new-lab writes labs/$name and solutions/$name"
else
	t_fail "make new-lab writes labs/$name and solutions/$name" "status $rc: $out"
fi

# Its page in the book: a lab-page, listed after the last lab, with the
# README's title (the book fails on a lab without a page).
title=$(sed -n 's/^TITLE := //p' "$WB_LABS/$name/lab.mk")
if [ "$(cat "$tmp/book/chapters/labs/$name.rst" 2>/dev/null)" = ".. lab-page:: $name" ] &&
	[ "$(head -n 1 "$WB_LABS/$name/README.rst")" = "$title" ] &&
	grep '<chapters/labs/' "$tmp/book/index.rst" | tail -n 1 | grep -qxF "   $name: $title <chapters/labs/$name>"; then
	t_ok "its book page is written and listed last, with the README's title"
else
	t_fail "its book page is written and listed last, with the README's title" \
		"$(grep -n 'chapters/labs' "$tmp/book/index.rst" | tail -n 3)"
fi

rc=0
out=$("$WB_ROOT/vm/newlab.sh" "$name" 2>&1) || rc=$?
if [ "$rc" != 0 ] && printf '%s' "$out" | grep -q 'exists already'; then
	t_ok "a name that is taken is refused"
else
	t_fail "a name that is taken is refused" "status $rc: $out"
fi
rc=0
out=$("$WB_ROOT/vm/newlab.sh" "Bad Name" 2>&1) || rc=$?
if [ "$rc" != 0 ] && printf '%s' "$out" | grep -q 'usage: make new-lab' && [ ! -e "$WB_LABS/Bad Name" ]; then
	t_ok "a name that is not lower case, digits and '-' is refused"
else
	t_fail "a name that is not lower case, digits and '-' is refused" "status $rc: $out"
fi

mod=$(printf '%s' "$name" | tr - _)
rc=0
out=$(perl "$WB_KSRC/scripts/checkpatch.pl" --no-tree --strict -q -f "$WB_SOLUTIONS/$name/$mod.c" 2>&1) || rc=$?
if [ "$rc" = 0 ]; then
	t_ok "the scaffold's module passes checkpatch.pl --strict"
else
	t_fail "the scaffold's module passes checkpatch.pl --strict" "$out"
fi

if [ "$(grep -c 'TODO [0-9]*:' "$WB_SOLUTIONS/$name/$mod.c")" = 1 ]; then
	t_ok "the scaffold has one TODO"
else
	t_fail "the scaffold has one TODO" "$(grep -n TODO "$WB_SOLUTIONS/$name/$mod.c")"
fi

rc=0
sh "$WB_ROOT/tests/check-lab.sh" "$name" >"$tmp/check.log" 2>&1 || rc=$?
if [ "$rc" = 0 ] && [ "$(grep -c '^ok ' "$tmp/check.log")" = 3 ]; then
	t_ok "make check LAB=$name passes on the scaffold as written"
else
	t_fail "make check LAB=$name passes on the scaffold as written" \
		"status $rc" "$(tail -n 30 "$tmp/check.log")"
fi
t_done
