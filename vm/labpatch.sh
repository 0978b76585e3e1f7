#!/bin/sh
# make lab-patch LAB=x: the lab's exercise patch, regenerated from a tree
# its author edits. The first run prepares a git work tree in the cache
# with the tree's version of the lab's kernel files as one commit and the
# lab's patches (solutions/LAB/*.patch) on top; edit and commit there
# (git commit --amend keeps one patch; more commits give a series). The
# next run writes git format-patch files back into solutions/LAB/, with
# what is not yet committed folded into the last commit, and runs
# checkpatch.pl --strict on them.
#
#   vm/labpatch.sh LAB          prepare, or write the patches back
#   vm/labpatch.sh --reset LAB  throw the work tree away
set -eu
. "$(dirname "$0")/lib.sh"

reset=0
if [ "${1:-}" = --reset ]; then
	reset=1
	shift
fi
wb_lab_require "${1:-}"
lab=$1
wb_need_cmds git:git patch:patch
repo=$WB_CACHE/author/$lab
if [ "$reset" = 1 ]; then
	rm -rf "$repo"
	wb_say "removed $repo"
	exit 0
fi
g() {
	git -C "$repo" -c user.name="${GIT_AUTHOR_NAME:-Kernel Workbook}" \
		-c user.email="${GIT_AUTHOR_EMAIL:-workbook@example.org}" "$@"
}

if [ ! -d "$repo/.git" ]; then
	"$WB_ROOT/vm/kernel.sh" --tree || exit 1
	files=$( {
		wb_lab_own_files "$lab" | awk '$2 == "tree" { print $1 }'
		for p in $(wb_lab_patches "$lab"); do wb_patch_files "$p"; done
	} | sort -u)
	[ -n "$files" ] || wb_die "lab $lab has no tree file in its FILES (path:tree) and no patch"
	rm -rf "$repo"
	mkdir -p "$repo"
	git init -q "$repo"
	for f in $files; do
		[ -f "$WB_KBASE/$f" ] || continue
		mkdir -p "$(dirname "$repo/$f")"
		cp "$WB_KBASE/$f" "$repo/$f"
	done
	g add -A
	g commit -q -m "the workbook's tree (linux-source-6.1 and kernel/series)"
	g tag base
	for p in $(wb_lab_patches "$lab"); do
		g am -q "$p" || wb_die "solutions/$lab/${p##*/} does not apply to the tree; fix it in $repo (git am --show-current-patch)"
	done
	wb_say "edit the lab's kernel files in $repo"
	wb_say "(commit with a subject, a body that says why and Signed-off-by), then run: make lab-patch LAB=$lab"
	exit 0
fi

if [ -n "$(g status --porcelain)" ]; then
	g add -A
	if [ "$(g rev-parse HEAD)" = "$(g rev-parse base)" ]; then
		wb_die "the changes in $repo are not committed yet: commit them with a subject and a message, then run this again"
	fi
	g commit -q --amend --no-edit
	wb_say "folded the uncommitted changes into the last commit"
fi
[ "$(g rev-list --count base..HEAD)" -gt 0 ] || wb_die "no commit on top of the tree in $repo"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
g format-patch -q --zero-commit --no-signature -o "$out" base..HEAD
rm -f "$WB_SOLUTIONS/$lab"/*.patch
mkdir -p "$WB_SOLUTIONS/$lab"
cp "$out"/*.patch "$WB_SOLUTIONS/$lab/"
rc=0
for p in "$WB_SOLUTIONS/$lab"/*.patch; do
	wb_say "wrote solutions/$lab/${p##*/}"
	(cd "$WB_KSRC" && perl scripts/checkpatch.pl --strict -q "$p" >&2) || rc=1
done
[ "$rc" = 0 ] || wb_say "checkpatch.pl --strict has comments (above): fix them in $repo and run this again"
exit "$rc"
