# shellcheck shell=sh
# What run.sh and check.sh of the security tour share. Sourced after
# /wb/lib.sh, inside the workbook VM.

W=/tmp/tour-security
SFS=/sys/kernel/security
POLICY=$SFS/ima/policy
MEASURED=$SFS/ima/ascii_runtime_measurements

# The tour's IMA rules: measure what is read of files whose group is
# 2001, or any group above 5000. IMA's policy only grows and cannot be
# emptied before the next boot, so the rules go in once per boot.
RULE_EQ='measure func=FILE_CHECK mask=MAY_READ fgroup=2001'
RULE_GT='measure func=FILE_CHECK mask=MAY_READ fgroup>5000'

# uring_counts: auditnl's io_uring request again, counted by perf at four
# of io_uring's tracepoints on every CPU (-a: the request runs in an
# io-wq worker thread, not in the program); perf's line for each. The
# command is shown as typed.
uring_counts() {
	wb_typed "perf stat -a -e io_uring:io_uring_create,io_uring:io_uring_submit_sqe,io_uring:io_uring_queue_async_work,io_uring:io_uring_complete /build/auditnl uring /etc/passwd 2>&1 >/dev/null | grep io_uring:"
}

tour_dirs() {
	mkdir -p "$W/dir" "$W/ima"
}

# securityfs: init does not mount it; IMA's files are under it.
securityfs_up() {
	grep -q " $SFS securityfs " /proc/mounts || mount -t securityfs securityfs "$SFS"
}

# ima_has_rules: this boot's policy has the tour's rules already.
ima_has_rules() {
	grep -qF "$RULE_EQ" "$POLICY"
}

# ima_rules: add the tour's two rules unless this boot has them already.
ima_rules() {
	securityfs_up
	ima_has_rules && return 0
	printf '%s\n%s\n' "$RULE_EQ" "$RULE_GT" >"$POLICY"
}

# ima_file NAME GROUP: a new file in $W/ima, with contents no other file
# of the boot has (IMA keeps one entry per file contents and name), in
# GROUP, then read once.
ima_file() {
	f=$W/ima/$1
	rm -f "$f"
	{ echo "$1"; od -An -tx1 -N16 /dev/urandom; } >"$f"
	chgrp "$2" "$f"
	cat "$f" >/dev/null
}

# measured NAME: how many entries of the measurement list name the file.
# IMA writes the path from the root of the mount tree, not from the
# process's root; the guest switched to its root for good (switch_root),
# so the list names a file as this shell does, /tmp/...
measured() {
	grep -c "$W/ima/$1\$" "$MEASURED"
}
