# Security: what the strict memcpy() checks of 6.1 warn about, what they
# stop, and the struct_group() fix, through lkdtm's FORTIFY tests and a
# test of the workbook's own (kernel/patches/0007).
CHAPTER := 06
TITLE := Field-spanning writes under FORTIFY_SOURCE: warn, stop, and struct_group()
TIMEOUT := 240
FILES := drivers/misc/lkdtm/fortify.c:tree spanbuild.c:module
# fortify_panic() BUGs on a copy past the whole object: the last step and
# the last check ask for it. The guest then runs without oops=panic, and
# a crash report is the lab's failure unless it matches this.
EXPECT_OOPS := kernel BUG at lib/string_helpers\.c:[0-9]+
