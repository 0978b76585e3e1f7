# shellcheck shell=sh
# A kernel report in the student's own files and lines. Sourced by
# vm/qemu.sh, which decodes a crash's report and the detectors' findings
# with it before anyone reads them.
#
# wb_decode RUNDIR: the report on stdin, on stdout with each frame
# ("func+0x1c/0x40", "func+0x1c/0x40 [module]") followed by
# " -> FILE:LINE", and ", TODO n" when the line is in the student's code
# for TODO n of that file. The tree's scripts/faddr2line finds the line
# in the object that ran: the lab's module as it was built for this run
# (RUNDIR/build names the folder), a module of the tree, or the vmlinux
# the VM booted (RUNDIR/vmlinux). FILE is the file the student edits
# (labs/LAB/...) when the code is theirs, the tree's path otherwise.
# A frame that cannot be found is left as it is.
wb_decode() {
	local rundir lab variant build tmp obj fr mod
	rundir=$1
	lab=$(cat "$rundir/lab" 2>/dev/null || :)
	variant=$(cat "$rundir/variant" 2>/dev/null || echo student)
	build=$(cat "$rundir/build" 2>/dev/null || :)
	tmp=$(mktemp -d) || { cat; return 0; }
	cat >"$tmp/in"
	# The frames of the report, at most 24, each with the object it is in.
	grep -oE '[A-Za-z0-9_.]+\+0x[0-9a-f]+/0x[0-9a-f]+( \[[A-Za-z0-9_]+\])?' "$tmp/in" |
		awk '!seen[$0]++' | head -n 24 | while read -r fr mod; do
		mod=${mod#\[}
		mod=${mod%\]}
		if [ -z "$mod" ]; then
			obj=$rundir/vmlinux
		elif [ -n "$build" ] && [ -f "$build/.mod-$mod/$mod.ko" ]; then
			obj=$build/.mod-$mod/$mod.ko
		else
			obj=$(find "$rundir/modules/" -name "$mod.ko" 2>/dev/null | head -n 1)
		fi
		# A module's init code is sized to the end of its section
		# (func+0x9d/0x1000), not to the function: there faddr2line
		# gets the offset alone.
		[ "$obj" = "$rundir/vmlinux" ] || fr=${fr%/*}
		[ -n "$obj" ] && [ -f "$obj" ] && printf '%s %s\n' "$obj" "$fr"
	done >"$tmp/frames"
	# One faddr2line per object: "FUNC+OFF PATH:LINE" for each place of a
	# frame, innermost first (an inlined function, then its callers).
	cut -d' ' -f1 "$tmp/frames" | sort -u | while read -r obj; do
		# shellcheck disable=SC2046
		"$WB_KSRC/scripts/faddr2line" "$obj" $(awk -v o="$obj" '$1 == o { print $2 }' "$tmp/frames") 2>/dev/null |
			awk '/^[^ ]+\+0x[0-9a-f]+(\/0x[0-9a-f]+)?:$/ { fr = $0; sub(/(\/0x[0-9a-f]+)?:$/, "", fr); next }
				fr != "" && / at [^ ]+:[0-9]+/ { sub(/.* at /, ""); sub(/ .*/, ""); print fr, $0 }
				/^$/ { fr = "" }'
	done | while read -r fr where; do
		printf '%s %s\n' "$fr" "$(wb_decode_where "$lab" "$variant" "$build" "$where")"
	done >"$tmp/places"
	# Each frame's place: the innermost in a file of the student's (the
	# line they wrote, not the kernel's inline helper it called), or else
	# the innermost.
	awk '{ k = $1; t = $2; w = $0; sub(/^[^ ]+ [^ ]+ /, "", w)
		if (!(k in any)) any[k] = w
		if (t == "S" && !(k in mine)) mine[k] = w }
		END { for (k in any) print k, (k in mine) ? mine[k] : any[k] }' "$tmp/places" >"$tmp/lines"
	awk -v lines="$tmp/lines" '
		BEGIN { while ((getline l < lines) > 0) { k = l; sub(/ .*/, "", k); at[k] = substr(l, length(k) + 2) } }
		{
			out = $0
			if (match($0, /[A-Za-z0-9_.]+\+0x[0-9a-f]+/)) {
				k = substr($0, RSTART, RLENGTH)
				if (k in at) out = out " -> " at[k]
			}
			print out
		}' "$tmp/in"
	rm -rf "$tmp"
}

# wb_decode_where LAB VARIANT BUILD PATH:LINE: the place as the student
# knows it, after "S " when it is in a file of theirs, "T " otherwise. A module's build copy (BUILD/.mod-NAME/NAME.c) is the lab's
# file NAME.c; a path of the tree is the lab's own copy when the lab has
# the student write that file; then the TODO of the line, if any.
wb_decode_where() {
	local lab variant build path line file shown todo
	lab=$1 variant=$2 build=$3 path=${4%:*} line=${4##*:}
	file=
	if [ -n "$lab" ]; then
		case $path in
		"$build"/.mod-*/*) file=$(wb_lab_files "$lab" | awk -v b="${path##*/}" '$2 == "module" && $1 ~ ("(^|/)" b "$") { print $1; exit }') ;;
		/*) ;;
		*) file=$(wb_lab_files "$lab" | awk -v p="$path" '$2 == "tree" && $1 == p { print $1; exit }') ;;
		esac
	fi
	if [ -z "$file" ]; then
		printf 'T %s:%s\n' "${path#"$WB_KSRC"/}" "$line"
		return 0
	fi
	file=$(wb_variant_file "$lab" "$variant" "$file")
	shown=${file#"$WB_ROOT"/}
	todo=$("$WB_ROOT/vm/skel.sh" --strip todo "$file" 2>/dev/null | awk -v l="$line" '$1 == l { print $2; exit }')
	printf 'S %s:%s%s\n' "$shown" "$line" "${todo:+, TODO $todo}"
}
