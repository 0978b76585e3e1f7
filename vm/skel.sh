#!/bin/sh
# A lab's files, generated from one source of truth: the lab's exercise
# patch (solutions/LAB/*.patch, applied to the workbook's tree) and the
# files the lab writes from scratch (solutions/LAB/<path>).
#
#   vm/skel.sh LAB solution [DIR]  the worked solution's files, into DIR
#   vm/skel.sh LAB skeleton [DIR]  the same with the TODO steps removed
#                                  (DIR defaults to the variant's folder
#                                  in the cache)
#   vm/skel.sh LAB student         create the student's missing files in
#                                  labs/LAB (never touches an existing one)
#                                  and prepare the kernel files to build
#   vm/skel.sh --regenerate LAB    fresh skeletons over the student's files;
#                                  an edited copy is kept aside first
#   vm/skel.sh --diff LAB          the student's work as a patch against
#                                  the skeleton, on stdout
#
# In a solution, a comment line "/* TODO n: what to do */" (or "// TODO n:")
# marks the code that the student writes. The skeleton keeps the comment
# and drops the lines after it, up to the first blank line at which the
# braces opened since the marker are closed again, or the next marker.
# Where the skeleton must hold code of its own (the naive version the
# student replaces), the block gives it as comment lines
# "/* skeleton: CODE */", which the skeleton keeps as CODE.
set -eu
. "$(dirname "$0")/lib.sh"

action=build
case ${1:-} in
--regenerate | --diff | --next)
	action=${1#--}
	shift
	;;
esac
wb_lab_require "${1:-}"
lab=$1
variant=${2:-student}
[ "$action" = build ] || variant=student
# A tour has no student files: nothing to generate, regenerate or diff.
if wb_lab_is_tour "$lab"; then
	case $action in
	build) exit 0 ;;
	next) exit 1 ;;
	*) wb_die "$lab is a tour of its chapter: it has no files for the student to write" ;;
	esac
fi

strip() {
	awk '
		function depth(s,   o, c) {
			o = gsub(/\{/, "{", s); c = gsub(/\}/, "}", s)
			return o - c
		}
		/^[ \t]*(\/\*|\/\/) TODO [0-9]+:/ { print; cut = 1; d = 0; next }
		cut && /^[ \t]*$/ && d <= 0 { cut = 0 }
		cut && /^[ \t]*\/\* skeleton: .* \*\/[ \t]*$/ {
			sub(/\/\* skeleton: /, ""); sub(/ \*\/[ \t]*$/, ""); print; next
		}
		cut { d += depth($0); next }
		{ print }' "$1"
}

# The base copies of the files the lab's patches touch are saved by
# vm/kernel.sh when it prepares the tree; prepare it if one is missing.
need_base() {
	for f in $( {
		for p in $(wb_lab_patches "$lab"); do wb_patch_files "$p"; done
		wb_lab_own_files "$lab" | awk '$2 == "tree" { print $1 }'
	}); do
		[ -f "$WB_KBASE/$f" ] || [ -f "$WB_KBASE/.absent/$f" ] || return 0
	done
	return 1
}

# solution DIR: the lab's own files as the worked solution has them.
solution() {
	dir=$1
	rm -rf "$dir.new"
	mkdir -p "$dir.new"
	if need_base; then
		"$WB_ROOT/vm/kernel.sh" --tree >&2 || wb_die "the kernel tree could not be prepared"
	fi
	for p in $(wb_lab_patches "$lab"); do
		for f in $(wb_patch_files "$p"); do
			if [ ! -f "$WB_KBASE/$f" ] || [ -f "$dir.new/$f" ]; then
				continue
			fi
			mkdir -p "$(dirname "$dir.new/$f")"
			cp "$WB_KBASE/$f" "$dir.new/$f"
		done
		wb_apply_patch "$dir.new" "$p" "solutions/$lab/${p##*/}" ||
			wb_die "lab $lab: its exercise patch does not apply to the tree (see above)"
	done
	wb_lab_own_files "$lab" | while read -r path kind; do
		if [ "$kind" = tree ]; then
			# A file no patch of the lab touches is the tree's own: the
			# chapter's patch in kernel/series may carry the steps.
			[ -f "$dir.new/$path" ] && continue
			[ -f "$WB_KBASE/$path" ] ||
				wb_die "lab $lab lists $path:tree, which is neither in the tree nor added by solutions/$lab/*.patch"
			mkdir -p "$(dirname "$dir.new/$path")"
			cp "$WB_KBASE/$path" "$dir.new/$path"
			continue
		fi
		src=$WB_SOLUTIONS/$lab/$path
		[ -f "$src" ] || wb_die "lab $lab lists $path, but $src does not exist"
		mkdir -p "$(dirname "$dir.new/$path")"
		cp "$src" "$dir.new/$path"
	done
	rm -rf "$dir"
	mv "$dir.new" "$dir"
}

# What a lab's variants are made from: this script, the lab's manifest,
# its patches, the tree's copies they apply to and the lab's own files.
# A variant made from the same inputs is not made again.
sum_of() {
	if [ -f "$1" ]; then sha256sum <"$1"; else echo absent; fi
}
inputs_key() {
	{
		cat "$0" "$(wb_lab_dir "$lab")/lab.mk"
		for p in $(wb_lab_patches "$lab"); do
			cat "$p"
			for f in $(wb_patch_files "$p"); do
				printf '%s %s\n' "$f" "$(sum_of "$WB_KBASE/$f")"
			done
		done
		wb_lab_own_files "$lab" | while read -r path kind; do
			src=$WB_SOLUTIONS/$lab/$path
			[ "$kind" = tree ] && src=$WB_KBASE/$path
			printf '%s %s\n' "$path" "$(sum_of "$src")"
		done
	} | sha256sum | cut -c1-32
}

# skeleton DIR: the solution with the student's steps removed.
skeleton() {
	sdir=$1
	key=$(inputs_key)
	if [ -d "$sdir" ] && [ "$(cat "$sdir.key" 2>/dev/null)" = "$key" ]; then
		return 0
	fi
	rm -f "$sdir.key"
	solution "$sdir.sol"
	rm -rf "$sdir"
	wb_lab_own_files "$lab" | while read -r path _kind; do
		mkdir -p "$(dirname "$sdir/$path")"
		strip "$sdir.sol/$path" >"$sdir/$path"
	done
	rm -rf "$sdir.sol"
	# The key of what it was made from, taken after solution() has
	# saved any missing copy of the tree.
	inputs_key >"$sdir.key"
}

# The skeleton a student file was created from is kept beside the
# variants: when the tree moves under the lab, the student's edits are
# merged onto the new skeleton instead of the new tree being reverted.
origin=$WB_LABWORK/$lab/origin
skel=$(wb_variant_dir "$lab" skeleton)

# student: every missing file of the lab folder, from the skeleton.
student() {
	missing=$(wb_lab_own_files "$lab" | while read -r path _kind; do
		[ -f "$WB_LABS/$lab/$path" ] || echo "$path"
	done)
	tree=$(wb_lab_own_files "$lab" | awk '$2 == "tree" { print $1 }')
	[ -n "$missing$tree" ] || return 0
	skeleton "$skel"
	for path in $missing; do
		mkdir -p "$(dirname "$WB_LABS/$lab/$path")" "$(dirname "$origin/$path")"
		cp "$skel/$path" "$WB_LABS/$lab/$path"
		cp "$skel/$path" "$origin/$path"
		wb_say "created labs/$lab/$path from the skeleton: it is yours to edit"
	done
	# The kernel files to build: the student's, merged onto the newest
	# skeleton if the tree changed since the copy was made.
	out=$WB_LABWORK/$lab/student/tree
	rm -rf "$out"
	for path in $tree; do
		mine=$WB_LABS/$lab/$path
		mkdir -p "$(dirname "$out/$path")"
		cp "$mine" "$out/$path"
		[ -f "$origin/$path" ] || continue
		cmp -s "$origin/$path" "$skel/$path" && continue
		rc=0
		git merge-file -L "labs/$lab/$path" -L "skeleton you started from" \
			-L "skeleton of the current tree" "$out/$path" "$origin/$path" \
			"$skel/$path" 2>/dev/null || rc=$?
		if [ "$rc" = 0 ]; then
			wb_say "note: the tree under labs/$lab/$path changed since your copy was made; your edits were merged onto it for this build (make skeletons LAB=$lab refreshes your copy)"
		else
			wb_say "error: the tree under labs/$lab/$path changed since your copy was made, and your edits conflict with the change:"
			grep -n -A8 '^<<<<<<< ' "$out/$path" | head -n 40 | sed 's/^/    /' >&2
			wb_die "resolve it in labs/$lab/$path (the tree's new version is in $skel/$path), then delete $origin/$path"
		fi
	done
}

case $action in
regenerate)
	skeleton "$skel"
	stamp=$(date +%Y%m%d-%H%M%S)
	wb_lab_own_files "$lab" | while read -r path _kind; do
		dst=$WB_LABS/$lab/$path
		if [ -f "$dst" ] && ! cmp -s "$skel/$path" "$dst"; then
			keep=$WB_CACHE/backup/$lab/$stamp/$path
			mkdir -p "$(dirname "$keep")"
			cp "$dst" "$keep"
			wb_say "$dst differed from the new skeleton; your copy is kept in $keep"
		fi
		mkdir -p "$(dirname "$dst")" "$(dirname "$origin/$path")"
		cp "$skel/$path" "$dst"
		cp "$skel/$path" "$origin/$path"
	done
	;;
diff)
	skeleton "$skel"
	rc=0
	wb_lab_own_files "$lab" | while read -r path _kind; do
		mine=$WB_LABS/$lab/$path
		if [ ! -f "$mine" ]; then
			wb_say "labs/$lab/$path: not created yet (make lab LAB=$lab creates it)"
			continue
		fi
		diff -u --label "a/labs/$lab/$path" --label "b/labs/$lab/$path" \
			"$skel/$path" "$mine" || :
	done
	exit "$rc"
	;;
next)
	# The first TODO step that the student has not touched, in the order
	# of FILES and then by number: its marker is still followed by the
	# skeleton's own lines, up to the blank line that ends the block.
	# Printed as "N PATH:LINE MARKER".
	skeleton "$skel"
	wb_lab_own_files "$lab" | while read -r path _kind; do
		[ -f "$WB_LABS/$lab/$path" ] || continue
		awk -v path="labs/$lab/$path" '
			FNR == NR {
				if (match($0, /TODO [0-9]+:/)) {
					b++
					num[b] = substr($0, RSTART + 5, RLENGTH - 6) + 0
					len[b] = 1
					line[b, 1] = $0
					inb = 1
				} else if (inb) {
					# The block ends with the blank line after it.
					line[b, ++len[b]] = $0
					if ($0 ~ /^[ \t]*$/)
						inb = 0
				}
				next
			}
			{ mine[FNR] = $0; n = FNR }
			END {
				for (k = 1; k <= b; k++)
					for (i = 1; i <= n; i++) {
						if (mine[i] != line[k, 1])
							continue
						for (j = 2; j <= len[k] && mine[i + j - 1] == line[k, j]; j++)
							;
						if (j > len[k]) {
							t = mine[i]
							sub(/^[ \t]*(\/\*|\/\/)[ \t]*/, "", t)
							sub(/[ \t]*\*\/[ \t]*$/, "", t)
							sub(/^TODO [0-9]+:[ \t]*/, "", t)
							print num[k], path ":" i, t
							break
						}
					}
			}' "$skel/$path" "$WB_LABS/$lab/$path" | sort -n | head -n 1
	done | head -n 1
	;;
build)
	case $variant in
	solution) solution "${3:-$(wb_variant_dir "$lab" solution)}" ;;
	skeleton) skeleton "${3:-$skel}" ;;
	student) student ;;
	*) wb_die "unknown variant '$variant' (student, solution or skeleton)" ;;
	esac
	;;
esac
