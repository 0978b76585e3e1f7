# The reports of the kernel's detectors in a kernel log, one KTAP result
# per detector, unnumbered: run by vm/guest/detectors.sh in the guest
# (and by tests/f-10-verdict.sh on the host) as
#   awk -F '\t' -f detectors.awk detectors.tab detectors.known LOG
# A report starts at a line of a detector's ERE (detectors.tab) and runs
# to the next report, a line of ='s, the end of a trace, or 40 lines
# (KFENCE's and lockdep's have blank lines inside). One that
# matches a line of detectors.known (same detector, ERE against the
# report's lines joined by " | ") is the tree's, not the lab's: left out.
# A detector with reports is "not ok", with their number and the first
# one's first line, frames and the lines that say where.
function flush() {
	if (cur == "") return
	if (!known_report(cur, text)) {
		count[cur]++
		if (count[cur] == 1) first[cur] = shown
	}
	cur = ""
}
function known_report(id, t,   i) {
	for (i = 1; i <= nk; i++)
		if (kid[i] == id && t ~ kre[i]) return 1
	return 0
}
FILENAME ~ /detectors\.tab$/ {
	if (/^#/ || NF < 3) next
	n++; id[n] = $1; re[n] = $2; name[n] = $3
	next
}
FILENAME ~ /detectors\.known$/ {
	if (/^#/ || NF < 3) next
	nk++; kid[nk] = $1; kre[nk] = $2
	next
}
{
	sub(/\r$/, "")
	for (i = 1; i <= n; i++)
		if ($0 ~ re[i]) {
			flush()
			cur = id[i]; text = $0; shown = "# " $0 "\n"; lines = 1
			next
		}
	if (cur == "") next
	if ($0 ~ /^=+$/ || $0 ~ /^---\[ end trace / || lines >= 40) { flush(); next }
	lines++
	text = text " | " $0
	# The frames (function+offset/size), and the lines that say
	# where (an address, a size, the task), not the hex dumps.
	if ($0 ~ /\+0x[0-9a-f]+\/0x[0-9a-f]+/ || $0 ~ /^(  comm|Use-after-free|Out-of-bounds|Invalid|in_atomic|index .* out of range|.* (by task|held by|still held|of size) )/)
		shown = shown "# " $0 "\n"
}
END {
	flush()
	for (i = 1; i <= n; i++) {
		if (!count[id[i]]) { print "ok - " name[i]; continue }
		print "not ok - " name[i]
		printf "# %d report%s; the first:\n", count[id[i]], count[id[i]] == 1 ? "" : "s"
		printf "%s", first[id[i]]
	}
}
