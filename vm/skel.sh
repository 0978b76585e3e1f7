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
#   vm/skel.sh --ship LAB DIR      the skeleton as a student repository
#                                  holds it (make student-repo), into DIR
#   vm/skel.sh --strip MODE FILE   one pass of the generator over FILE:
#                                  MODE skeleton, dropped or todo (see strip)
#
# In a solution, a comment line "/* TODO n: what to do */" (or "// TODO n:")
# marks the code that the student writes. The skeleton keeps the comment
# and drops the lines after it, up to the first blank line at which the
# braces opened since the marker are closed again, or the next marker.
# Where the skeleton must hold code of its own (the naive version the
# student replaces), the block gives it as comment lines
# "/* skeleton: CODE */", which the skeleton keeps as CODE.
#
# A student repository has no solutions/: the skeleton is made from what
# --ship wrote into skeletons/LAB instead, to the byte the same.
set -eu
. "$(dirname "$0")/lib.sh"

# strip MODE FILE: the generator's one pass. MODE skeleton prints the
# skeleton of a solution file; dropped prints only the lines it drops,
# the solution's own code; todo prints "LINE N" for each line of a
# TODO n block, its marker included (in a student's file: the code they
# wrote for it, up to where the skeleton's block would end). MODE cut reads instead a listing of a tree
# file against the solution, each line tagged " " (in both), "-" (in the
# tree only) or "+" (in the solution only), and prints the numbers of
# the tree's lines that fall in a dropped block: a tree line that the
# solution changed counts with the block when its change touches one.
strip() {
	LC_ALL=C awk -v mode="$1" '
		function depth(s,   o, c) {
			o = gsub(/\{/, "{", s); c = gsub(/\}/, "}", s)
			return o - c
		}
		# step S: a line of the solution through the state machine;
		# "K" (kept, as the text in kept) or "D" (dropped).
		function step(s) {
			marker = 0
			if (s ~ /^[ \t]*(\/\*|\/\/) TODO [0-9]+:/) {
				cut = 1; d = 0; marker = 1; kept = s
				return "K"
			}
			if (cut && s ~ /^[ \t]*$/ && d <= 0)
				cut = 0
			if (cut && s ~ /^[ \t]*\/\* skeleton: .* \*\/[ \t]*$/) {
				sub(/\/\* skeleton: /, "", s); sub(/ \*\/[ \t]*$/, "", s)
				kept = s
				return "K"
			}
			if (cut) {
				d += depth(s)
				return "D"
			}
			kept = s
			return "K"
		}
		# The tree lines of a change group: cut when the group starts,
		# passes or ends inside a block.
		function flush(   i) {
			if (group && (touched || cut))
				for (i = 1; i <= n; i++)
					print pending[i]
			group = 0; n = 0
		}
		mode == "skeleton" { if (step($0) == "K") print kept; next }
		mode == "dropped" { if (step($0) == "D") print; next }
		mode == "todo" {
			r = step($0)
			if (marker) { todo = $0; sub(/.*TODO /, "", todo); sub(/:.*/, "", todo) }
			if (marker || r == "D") print NR, todo
			next
		}
		{
			tag = substr($0, 1, 1)
			if (tag == " ") {
				flush()
				t++
				if (step(substr($0, 2)) == "D")
					print t
				next
			}
			if (!group) {
				group = 1
				touched = cut
			}
			if (tag == "-") {
				pending[++n] = ++t
				next
			}
			if (step(substr($0, 2)) == "D" || marker)
				touched = 1
		}
		END { if (mode == "cut") flush() }' "$2"
}

action=build
case ${1:-} in
--strip)
	case ${2:-} in
	skeleton | dropped | cut | todo) strip "$2" "${3:--}" ;;
	*) wb_die "usage: vm/skel.sh --strip skeleton|dropped|cut|todo FILE" ;;
	esac
	exit 0
	;;
--regenerate | --diff | --next | --ship)
	action=${1#--}
	shift
	;;
esac
# make skeletons with no LAB: every lab's (a tour has no student files).
if [ "$action" = regenerate ] && [ -z "${1:-}" ]; then
	for l in $(wb_exercise_names); do
		"$0" --regenerate "$l" || exit 1
	done
	exit 0
fi
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
prepare_base() {
	if need_base; then
		"$WB_ROOT/vm/kernel.sh" --tree >&2 || wb_die "the kernel tree could not be prepared"
	fi
}

# solution DIR: the lab's own files as the worked solution has them.
solution() {
	dir=$1
	! wb_lab_shipped "$lab" ||
		wb_die "lab $lab: this is a student repository; it has the lab's skeleton (skeletons/$lab), not its worked solution"
	rm -rf "$dir.new"
	mkdir -p "$dir.new"
	prepare_base
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

# ---- the skeleton a student repository ships ---------------------------

# A patch names every line it removes, and the tree's lines inside a
# TODO block are the answer (bpf-bloom's sizing is the tree's own code).
# So a shipped skeleton.patch goes from the tree without those lines to
# the skeleton, and its header lists the lines to cut first by place and
# checksum, never by text: "cut PATH FIRST COUNT SUM", COUNT lines from
# line FIRST whose checksum is SUM. The checksums, in awk (line_sum of
# each line into sums[], block_sum of COUNT of them):
sum_awk='
	BEGIN { for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i }
	function line_sum(s,   i, h) {
		h = 5381
		for (i = 1; i <= length(s); i++)
			h = (h * 33 + ord[substr(s, i, 1)]) % 4294967296
		return h
	}
	function block_sum(from, count,   i, h) {
		h = count
		for (i = from; i < from + count; i++)
			h = (h * 1000003 + sums[i]) % 4294967296
		return sprintf("%.0f", h)
	}'

# cut_spec PATH TREE LINES OUT: TREE without the lines numbered in LINES
# into OUT; prints their "cut" lines.
cut_spec() {
	LC_ALL=C awk -v path="$1" -v out="$4" "$sum_awk"'
		FNR == NR { c[$1] = 1; next }
		{ line[FNR] = $0; sums[FNR] = line_sum($0); n = FNR }
		END {
			printf "" >out
			for (i = 1; i <= n; i++) {
				if (!(i in c)) {
					print line[i] >out
					continue
				}
				if (!(i - 1 in c))
					first = i
				if (!(i + 1 in c))
					print "cut", path, first, i - first + 1, block_sum(first, i - first + 1)
			}
		}' "$3" "$2"
}

# cut_tree PATH PATCH FILE: cut from FILE, in place, the lines PATCH
# lists for PATH. Lines the tree moved are looked for nearby and said;
# lines that changed stop it, as a hunk that does not apply would.
cut_tree() {
	LC_ALL=C awk -v path="$1" -v patch="skeletons/$lab/skeleton.patch" "$sum_awk"'
		function fits(k, at) {
			return at >= from && at + count[k] - 1 <= n && block_sum(at, count[k]) == want[k]
		}
		FNR == NR {
			if ($1 == "cut" && $2 == path) {
				k++; first[k] = $3; count[k] = $4; want[k] = $5
			}
			next
		}
		{ line[FNR] = $0; sums[FNR] = line_sum($0); n = FNR }
		END {
			from = 1; shift = 0
			for (j = 1; j <= k; j++) {
				at = 0
				for (d = 0; !at && d <= n; d++) {
					if (fits(j, first[j] + shift + d))
						at = first[j] + shift + d
					else if (d && fits(j, first[j] + shift - d))
						at = first[j] + shift - d
				}
				if (!at) {
					printf "error: %s: the %d lines of %s from line %d (the code the lab asks you to write) are not in the tree as they were when the skeleton was made: the tree changed inside the exercise\n", patch, count[j], path, first[j] >"/dev/stderr"
					exit 1
				}
				if (at != first[j])
					printf "warning: the tree moved under %s: the %d lines of %s cut from line %d are at line %d (the tree'"'"'s change is kept)\n", patch, count[j], path, first[j], at >"/dev/stderr"
				for (i = at; i < at + count[j]; i++)
					drop[i] = 1
				shift = at - first[j]
				from = at + count[j]
			}
			for (i = 1; i <= n; i++)
				if (!(i in drop))
					print line[i]
		}' "$2" "$3" >"$3.cut" && mv "$3.cut" "$3"
}

# shipped SRC DIR: the lab's files as the skeleton shipped in SRC (a
# student repository's skeletons/LAB) makes them: the module, program and
# BPF files as they are; the tree's kernel files, cut and patched.
shipped() {
	local src dir patch
	src=$1 dir=$2
	patch=$src/skeleton.patch
	rm -rf "$dir.new"
	mkdir -p "$dir.new"
	prepare_base
	wb_lab_own_files "$lab" | while read -r path kind; do
		mkdir -p "$(dirname "$dir.new/$path")"
		if [ "$kind" != tree ]; then
			[ -f "$src/$path" ] || wb_die "lab $lab lists $path, but $src/$path does not exist"
			cp "$src/$path" "$dir.new/$path"
		elif [ -f "$WB_KBASE/$path" ]; then
			cp "$WB_KBASE/$path" "$dir.new/$path"
			[ ! -f "$patch" ] || cut_tree "$path" "$patch" "$dir.new/$path" ||
				wb_die "lab $lab: its skeleton cannot be made from the tree (see above)"
		fi
	done
	if [ -f "$patch" ] && grep -q '^+++ ' "$patch"; then
		wb_apply_patch "$dir.new" "$patch" "skeletons/$lab/skeleton.patch" ||
			wb_die "lab $lab: its skeleton patch does not apply to the tree (see above)"
	fi
	wb_lab_own_files "$lab" | while read -r path _kind; do
		[ -f "$dir.new/$path" ] ||
			wb_die "lab $lab lists $path:tree, which is neither in the tree nor added by skeletons/$lab/skeleton.patch"
	done
	rm -rf "$dir"
	mv "$dir.new" "$dir"
}

# ship DIR: the skeleton as make student-repo writes it into
# skeletons/LAB, made from the solution, then made back with shipped()
# and compared: the module, program and BPF files as they are, and
# DIR/skeleton.patch for the kernel files (the cuts, then the patch). A
# tree file that kernel/series creates or changes is the tree's own
# there: the student repository's series carries its skeleton
# (vm/studentrepo.sh).
ship() {
	local dest work base from
	dest=$1
	skeleton "$skel"
	work=$(mktemp -d)
	solution "$work/sol"
	rm -rf "$dest"
	mkdir -p "$dest"
	wb_series_files | sort -u >"$work/series"
	: >"$work/cuts"
	: >"$work/diff"
	: >"$work/own"
	wb_lab_own_files "$lab" | while read -r path kind; do
		if [ "$kind" != tree ]; then
			mkdir -p "$(dirname "$dest/$path")"
			cp "$skel/$path" "$dest/$path"
			continue
		fi
		if grep -qxF "$path" "$work/series"; then
			echo "$path" >>"$work/own"
			continue
		fi
		base=$WB_KBASE/$path
		from=a/$path
		if [ ! -f "$base" ]; then
			base=/dev/null
			from=/dev/null
		fi
		diff --old-line-format='-%L' --new-line-format='+%L' --unchanged-line-format=' %L' \
			"$base" "$work/sol/$path" | strip cut - >"$work/lines"
		cut_spec "$path" "$base" "$work/lines" "$work/tree" >>"$work/cuts"
		diff -up --label "$from" --label "b/$path" "$work/tree" "$skel/$path" \
			>>"$work/diff" || [ $? = 1 ]
	done
	if wb_lab_own_files "$lab" | grep -q ' tree$'; then
		{
			echo "Lab $lab: the skeleton of its kernel files, for vm/skel.sh (make"
			echo "skeletons LAB=$lab makes your copies again from it, keeping edited"
			echo "ones aside)."
			sed 's/$/: the tree'"'"'s own; kernel\/series carries its skeleton./' "$work/own"
			if [ -s "$work/cuts" ] || [ -s "$work/diff" ]; then
				echo "Made from the workbook's tree (linux-source-6.1 with kernel/series):"
				echo "first the lines listed as \"cut PATH FIRST COUNT SUM\" are removed"
				echo "(COUNT lines from line FIRST, found by their checksum SUM: the code"
				echo "the lab asks you to write, which this file does not spell out), then"
				echo "the patch below is applied."
				echo
				cat "$work/cuts"
				echo
				cat "$work/diff"
			fi
		} >"$dest/skeleton.patch"
	fi
	shipped "$dest" "$work/check"
	wb_lab_own_files "$lab" | while read -r path _kind; do
		grep -qxF "$path" "$work/own" || cmp -s "$skel/$path" "$work/check/$path" ||
			wb_die "lab $lab: the shipped skeleton does not make $path back"
	done
	rm -rf "$work"
}

# What a lab's variants are made from: this script, the lab's manifest,
# its patches or shipped skeleton, the tree's copies they apply to and
# the lab's own files. A variant made from the same inputs is not made
# again.
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
		own=$WB_SOLUTIONS/$lab
		if wb_lab_shipped "$lab"; then
			own=$WB_SKELETONS/$lab
			sum_of "$own/skeleton.patch"
		fi
		wb_lab_own_files "$lab" | while read -r path kind; do
			src=$own/$path
			[ "$kind" = tree ] && src=$WB_KBASE/$path
			printf '%s %s\n' "$path" "$(sum_of "$src")"
		done
	} | sha256sum | cut -c1-32
}

# skeleton DIR: the solution with the student's steps removed (in a
# student repository, what the shipped skeleton makes).
skeleton() {
	sdir=$1
	key=$(inputs_key)
	if [ -d "$sdir" ] && [ "$(cat "$sdir.key" 2>/dev/null)" = "$key" ]; then
		return 0
	fi
	rm -f "$sdir.key"
	if wb_lab_shipped "$lab"; then
		shipped "$WB_SKELETONS/$lab" "$sdir"
	else
		solution "$sdir.sol"
		rm -rf "$sdir"
		wb_lab_own_files "$lab" | while read -r path _kind; do
			mkdir -p "$(dirname "$sdir/$path")"
			strip skeleton "$sdir.sol/$path" >"$sdir/$path"
		done
		rm -rf "$sdir.sol"
	fi
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
ship)
	ship "${2:?usage: vm/skel.sh --ship LAB DIR}"
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
