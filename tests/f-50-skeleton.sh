#!/bin/sh
# The skeleton generator (vm/skel.sh --strip), with no kernel tree: a
# TODO block is cut up to the blank line where its braces close, a
# skeleton: line becomes the skeleton's own code, the dropped lines are
# exactly the solution's, and a tree listing's lines inside a block are
# the ones cut.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/sol.c" <<'EOF2'
static int f(int x)
{
	/* TODO 1: refuse a negative x */
	if (x < 0) {
		pr_err("no\n");

		return -EINVAL;
	}

	/* TODO 2: the naive copy, then the real one */
	/* skeleton: return 0; */
	return x * 2;

}

int g(void)
{
	// TODO 3: one line
	return f(1);

}
EOF2
cat >"$tmp/want.c" <<'EOF2'
static int f(int x)
{
	/* TODO 1: refuse a negative x */

	/* TODO 2: the naive copy, then the real one */
	return 0;

}

int g(void)
{
	// TODO 3: one line

}
EOF2
"$WB_ROOT/vm/skel.sh" --strip skeleton "$tmp/sol.c" >"$tmp/skel.c"
if cmp -s "$tmp/want.c" "$tmp/skel.c"; then
	t_ok "a TODO block is cut to the blank line where its braces close; a skeleton: line is kept as code"
else
	t_fail "a TODO block is cut to the blank line where its braces close" "$(diff "$tmp/want.c" "$tmp/skel.c")"
fi
"$WB_ROOT/vm/skel.sh" --strip dropped "$tmp/sol.c" >"$tmp/dropped"
if [ "$(wc -l <"$tmp/dropped")" = 7 ] && grep -q 'return x \* 2;' "$tmp/dropped" &&
	grep -q 'return f(1);' "$tmp/dropped" && ! grep -q TODO "$tmp/dropped"; then
	t_ok "the dropped lines are the solution's own code, no marker among them"
else
	t_fail "the dropped lines are the solution's own code" "$(cat "$tmp/dropped")"
fi
# A tree listing against the solution: line 3 of the tree is replaced
# inside block 1, line 5 is beside it.
printf '%s\n' ' int h(void)' ' {' '+	/* TODO 1: the check */' '-	return 1;' '+	return 2;' '+' ' 	return 3;' \
	>"$tmp/listing"
"$WB_ROOT/vm/skel.sh" --strip cut "$tmp/listing" >"$tmp/cut"
t_status "a tree line changed inside a block is cut, one beside it is not" 3 "$(tr '\n' ' ' <"$tmp/cut" | sed 's/ $//')"
t_done
