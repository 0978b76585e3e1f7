# shellcheck shell=sh
# The module's walk file, for run.sh and check.sh (sourced after
# /wb/lib.sh, so only inside the workbook VM).

D=/sys/kernel/debug/folio_walk

# choose PATH: write PATH to the walk file in one write(); if the write
# fails, print the error dd saw and return non-zero.
choose() {
	choose_err=$(printf '%s\n' "$1" |
		dd of="$D/walk" bs=8192 count=1 iflag=fullblock status=none 2>&1) && return 0
	printf '%s\n' "${choose_err:-dd failed}"
	return 1
}

# walk PATH: the folios of PATH, one line each, or what went wrong.
walk() {
	choose "$1" && cat "$D/walk" 2>&1
}
