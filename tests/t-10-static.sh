#!/bin/sh
# What can be checked without booting: shell style, skeletons, patches,
# lab folders, and guest scripts refusing to run on the host.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- shell ----
scripts=$(cd "$WB_ROOT" && ls vm/*.sh vm/guest/init vm/guest/*.sh tests/*.sh \
	labs/*/*.sh tests/fixtures/labs/*/*.sh .ci/run 2>/dev/null)
# shellcheck disable=SC2086
if out=$(cd "$WB_ROOT" && shellcheck $scripts 2>&1); then
	t_ok "every shell script is shellcheck-clean ($(echo "$scripts" | wc -l) scripts)"
else
	t_fail "every shell script is shellcheck-clean" "$out"
fi
bad=$(cd "$WB_ROOT" && for s in $scripts; do
	# Files that are only sourced say so on their first line.
	head -n 1 "$s" | grep -q '^# shellcheck shell=sh' && continue
	grep -q '^set -[a-z]*e[a-z]*u\|^set -u' "$s" || echo "$s"
done)
if [ -z "$bad" ]; then
	t_ok "every script runs with set -u (and -e where it does not collect failures)"
else
	t_fail "every script runs with set -u (and -e where it does not collect failures)" "missing in: $bad"
fi

# ---- labs ----
for lab in $(wb_lab_names); do
	d=$WB_LABS/$lab
	missing=
	for k in CHAPTER TITLE TIMEOUT FILES; do
		[ -n "$(wb_manifest "$lab" "$k")" ] || missing="$missing lab.mk:$k"
	done
	for f in README.rst run.sh check.sh lab.gdb; do
		[ -f "$d/$f" ] || missing="$missing $f"
	done
	[ -f "$WB_SOLUTIONS/$lab/solution.rst" ] || missing="$missing solutions/$lab/solution.rst"
	grep -q '^# expect: ' "$d/lab.gdb" 2>/dev/null || missing="$missing lab.gdb:expect"
	if [ -z "$missing" ]; then
		t_ok "lab $lab has a manifest, steps, checker, gdb script and worked solution"
	else
		t_fail "lab $lab has a manifest, steps, checker, gdb script and worked solution" "missing:$missing"
	fi

	rm -rf "$tmp/skel"
	"$WB_ROOT/vm/skel.sh" "$lab" "$tmp/skel"
	diffs=$(wb_lab_own_files "$lab" | while read -r path _k _d; do
		diff -u "$d/$path" "$tmp/skel/$path" >/dev/null || echo "$path"
	done)
	if [ -z "$diffs" ]; then
		t_ok "lab $lab: the committed skeleton equals a freshly generated one"
	else
		t_fail "lab $lab: the committed skeleton equals a freshly generated one" \
			"differ: $diffs (run: make skeletons LAB=$lab)"
	fi
	todo=$(wb_lab_own_files "$lab" | while read -r path _k _d; do
		grep -q 'TODO [0-9]*:' "$WB_SOLUTIONS/$lab/$path" || echo "$path"
	done)
	if [ -z "$todo" ]; then
		t_ok "lab $lab: every student file has TODO steps"
	else
		t_fail "lab $lab: every student file has TODO steps" "no TODO marker in: $todo"
	fi

	# Guest-side scripts refuse to run here. PATH is empty, so that even a
	# script that forgot its guard could not reach insmod or ip.
	for s in run.sh check.sh bench.sh; do
		[ -f "$d/$s" ] || continue
		rc=0
		out=$(env -i PATH=/nonexistent /bin/sh "$d/$s" 2>&1) || rc=$?
		if [ "$rc" != 0 ] && printf '%s' "$out" | grep -q 'workbook VM'; then
			t_ok "lab $lab: $s refuses to run outside the workbook VM"
		else
			t_fail "lab $lab: $s refuses to run outside the workbook VM" "status $rc: $out"
		fi
	done
done
rc=0
out=$(env -i PATH=/usr/bin:/bin /bin/sh -c ". '$WB_ROOT/vm/guest/lib.sh'; echo still-here" 2>&1) || rc=$?
if [ "$rc" != 0 ] && ! printf '%s' "$out" | grep -q still-here; then
	t_ok "the guest library stops any script that sources it on the host"
else
	t_fail "the guest library stops any script that sources it on the host" "$out"
fi

# Regenerating never loses a student's edit.
mkdir -p "$tmp/labs"
cp -r "$WB_LABS/lab0-taint" "$tmp/labs/"
echo "/* my work */" >>"$tmp/labs/lab0-taint/taintmod.c"
out=$(WB_LABS=$tmp/labs WB_CACHE=$tmp/cache "$WB_ROOT/vm/skel.sh" lab0-taint 2>&1)
kept=$(find "$tmp/cache/backup" -name taintmod.c 2>/dev/null | head -n 1)
if [ -n "$kept" ] && grep -q 'my work' "$kept" && printf '%s' "$out" | grep -q "$kept"; then
	t_ok "regenerating a skeleton keeps the student's edited copy and says where"
else
	t_fail "regenerating a skeleton keeps the student's edited copy and says where" "$out"
fi

# ---- the kernel series ----
tree=$WB_KSRC
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$WB_KERNEL_DIR/series" >"$tmp/series"

# check_patch FILE NAME: git format-patch shape, then checkpatch --strict.
check_patch() {
	f=$1 p=$2
	miss=
	grep -q '^From 0\{40\} ' "$f" || miss="$miss From-line"
	grep -q '^Subject: \[PATCH' "$f" || miss="$miss Subject"
	grep -q '^Signed-off-by: ' "$f" || miss="$miss Signed-off-by"
	body=$(awk '/^Subject:/ { s = 1; next } s && /^---$/ { exit } s' "$f" | grep -vc '^\(Signed-off-by\|$\)')
	[ "$body" -ge 2 ] || miss="$miss body"
	if [ -z "$miss" ]; then
		t_ok "$p is a git format-patch with a subject, a body and Signed-off-by"
	else
		t_fail "$p is a git format-patch with a subject, a body and Signed-off-by" "missing:$miss"
	fi
	if [ -x "$tree/scripts/checkpatch.pl" ]; then
		if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict -q "$f" 2>&1); then
			t_ok "$p passes checkpatch.pl --strict"
		else
			t_fail "$p passes checkpatch.pl --strict" "$out"
		fi
	else
		t_fail "$p passes checkpatch.pl --strict" "no tree in $tree: run make kernel first"
	fi
}

while read -r p; do
	check_patch "$WB_KERNEL_DIR/patches/$p" "$p"
done <"$tmp/series"

# The series and the worked solutions cannot drift apart. A lab file the
# series adds to the tree is the solution itself, markers and all; a file
# the series changes is the package's file with the series applied, which
# must be the solution without its TODO marker lines.
tarball=${WB_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
for lab in $(wb_lab_names); do
	wb_lab_files "$lab" | while read -r path kind dest; do
		[ "$kind" = tree ] || continue
		dest=${dest:-$path}
		sol=$WB_SOLUTIONS/$lab/$path
		added='' changed=''
		while read -r p; do
			f=$WB_KERNEL_DIR/patches/$p
			grep -q "^+++ b/$dest\$" "$f" || continue
			if grep -B1 "^+++ b/$dest\$" "$f" | grep -q '^--- /dev/null'; then
				added=1
			else
				changed=1
			fi
		done <"$tmp/series"
		[ -n "$added$changed" ] || continue
		rm -rf "$tmp/apply"
		mkdir -p "$tmp/apply"
		if [ -n "$changed" ]; then
			tar -xJf "$tarball" -C "$tmp/apply" --strip-components=1 \
				"linux-source-6.1/$dest" 2>/dev/null
		fi
		while read -r p; do
			(cd "$tmp/apply" && git apply --include="$dest" "$WB_KERNEL_DIR/patches/$p" 2>/dev/null) || :
		done <"$tmp/series"
		if [ -n "$changed" ]; then
			what="changes $dest as the solution does (TODO markers aside)"
			grep -v '^[[:space:]]*\(/\*\|//\) TODO [0-9]*:' "$sol" >"$tmp/want"
		else
			what="adds $dest exactly as the solution has it"
			cp "$sol" "$tmp/want"
		fi
		if cmp -s "$tmp/apply/$dest" "$tmp/want"; then
			t_ok "lab $lab: the series $what"
		else
			t_fail "lab $lab: the series $what" \
				"$(diff -u "$tmp/apply/$dest" "$tmp/want" 2>&1 | head -n 20)"
		fi
	done
done

# An exercise patch (kernel/exercises/LAB/*.patch) is the step from the
# lab's skeleton to its solution: applied to the skeleton's kernel files
# it must give the solution's, byte for byte.
for d in "$WB_KERNEL_DIR"/exercises/*/; do
	[ -d "$d" ] || continue
	lab=$(basename "$d")
	rm -rf "$tmp/ex"
	mkdir -p "$tmp/ex"
	"$WB_ROOT/vm/skel.sh" "$lab" "$tmp/ex/skel" >/dev/null
	files=$(wb_lab_files "$lab" | awk '$2 == "tree" { print $1 " " ($3 ? $3 : $1) }')
	printf '%s\n' "$files" | while read -r path dest; do
		[ -n "$path" ] || continue
		mkdir -p "$(dirname "$tmp/ex/tree/$dest")"
		cp "$tmp/ex/skel/$path" "$tmp/ex/tree/$dest"
	done
	ok=1
	for f in "$d"*.patch; do
		check_patch "$f" "exercises/$lab/$(basename "$f")"
		(cd "$tmp/ex/tree" && git apply "$f" 2>"$tmp/ex/err") || ok=0
	done
	diffs=$(printf '%s\n' "$files" | while read -r path dest; do
		[ -n "$path" ] || continue
		cmp -s "$tmp/ex/tree/$dest" "$WB_SOLUTIONS/$lab/$path" || echo "$dest"
	done)
	if [ "$ok" = 1 ] && [ -z "$diffs" ]; then
		t_ok "lab $lab: its exercise patch turns the skeleton into the solution"
	else
		t_fail "lab $lab: its exercise patch turns the skeleton into the solution" \
			"$(cat "$tmp/ex/err") differ: $diffs"
	fi
done
t_done
