# The debugging lab: a module with three planted bugs, each found with
# one of the workbook's tools (the decoded oops and the dump, ftrace, a
# gdb watchpoint). Read by vm/lib.sh (wb_manifest).
CHAPTER := front
TITLE := Bug hunt: an oops, a leak and a wrong count, found with the kernel's tools
TIMEOUT := 180
FILES := hunt.c:module
# The checker writes a name that was never added, last: with the
# skeleton that oopses (a NULL pointer in TODO 1), the writer dies and
# the guest lives on, so that the other results still count.
EXPECT_OOPS := BUG: kernel NULL pointer dereference
