#!/bin/sh
# Skeletons from solutions: one source of truth.
#
#   vm/skel.sh LAB          regenerate the student's files in labs/LAB/
#   vm/skel.sh LAB DIR      write the skeleton into DIR instead
#
# In a solution, a comment line "/* TODO n: what to do */" (or "// TODO n:")
# marks the code that the student writes. The skeleton keeps the comment
# and drops the lines after it, up to the first blank line at which the
# braces opened since the marker are closed again, or the next marker.
# A file the student changed is copied aside before it is replaced.
set -eu
. "$(dirname "$0")/lib.sh"

wb_lab_require "${1:-}"
lab=$1
out=${2:-}

strip() {
	awk '
		function depth(s,   o, c) {
			o = gsub(/\{/, "{", s); c = gsub(/\}/, "}", s)
			return o - c
		}
		/^[ \t]*(\/\*|\/\/) TODO [0-9]+:/ { print; cut = 1; d = 0; next }
		cut && /^[ \t]*$/ && d <= 0 { cut = 0 }
		cut { d += depth($0); next }
		{ print }' "$1"
}

stamp=$(date +%Y%m%d-%H%M%S)
wb_lab_own_files "$lab" | while read -r path _kind _dest; do
	src=$WB_SOLUTIONS/$lab/$path
	[ -f "$src" ] || wb_die "lab $lab lists $path, but $src does not exist"
	if [ -n "$out" ]; then
		mkdir -p "$(dirname "$out/$path")"
		strip "$src" >"$out/$path"
		continue
	fi
	dst=$WB_LABS/$lab/$path
	tmp=$dst.skel.$$
	strip "$src" >"$tmp"
	if [ -f "$dst" ] && ! cmp -s "$tmp" "$dst"; then
		keep=$WB_CACHE/backup/$lab/$stamp/$path
		mkdir -p "$(dirname "$keep")"
		cp "$dst" "$keep"
		wb_say "$dst differed from the new skeleton; your copy is kept in $keep"
	fi
	mv "$tmp" "$dst"
done
