#!/bin/sh
# How much of the repository is upstream kernel text: for each tracked
# file, the share of its non-blank lines that also appear in a file of
# the extracted tree with the same name (of several such files, the one
# that shares the most). A lab stores its kernel exercise as a patch, so
# this stays small: what remains is a patch's context lines, which are
# in a file of another name, and the odd line that any two files of the
# same name share ("}", "#include <linux/module.h>").
#
#   vm/upstream-share.sh        prints "MATCHED TOTAL PERCENT"
#   vm/upstream-share.sh -v     and, before it, the files with matches
set -eu
. "$(dirname "$0")/lib.sh"

verbose=
[ "${1:-}" = -v ] && verbose=1
[ -d "$WB_KSRC" ] || wb_die "no kernel tree in $WB_KSRC; extract it first: make kernel"
wb_need_cmds git:git

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The tree's files by base name, once: "NAME<TAB>PATH".
(cd "$WB_KSRC" && find . -type f ! -path './.git/*' -printf '%f\t%P\n') | sort >"$tmp/index"

matched=0 total=0
git -C "$WB_ROOT" ls-files -z | tr '\0' '\n' >"$tmp/tracked"
while IFS= read -r f; do
	[ -f "$WB_ROOT/$f" ] || continue
	n=$(grep -c -v '^[[:space:]]*$' "$WB_ROOT/$f" 2>/dev/null) || n=0
	total=$((total + n))
	[ "$n" -gt 0 ] || continue
	name=${f##*/}
	awk -F '\t' -v n="$name" '$1 == n { print $2 }' "$tmp/index" >"$tmp/cands"
	[ -s "$tmp/cands" ] || continue
	best=0
	while IFS= read -r c; do
		# Lines of the tracked file (non-blank, counted with their
		# repeats) that are lines of the candidate.
		m=$(awk 'NR == FNR { have[$0] = 1; next }
			!/^[[:space:]]*$/ && ($0 in have) { m++ }
			END { print m + 0 }' "$WB_KSRC/$c" "$WB_ROOT/$f")
		[ "$m" -le "$best" ] || best=$m
	done <"$tmp/cands"
	matched=$((matched + best))
	if [ -n "$verbose" ] && [ "$best" -gt 0 ]; then
		printf '%6d of %6d lines  %s\n' "$best" "$n" "$f"
	fi
done <"$tmp/tracked"
awk -v m="$matched" -v t="$total" 'BEGIN { printf "%d %d %.1f\n", m, t, (t ? 100 * m / t : 0) }'
