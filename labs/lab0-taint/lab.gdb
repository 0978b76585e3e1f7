# Lab 0 under gdb: stop where /proc/tainted is generated, twice: once
# before the module is loaded and once after. Print the mask the function
# is about to decode and where the read came from.
#
# The test suite runs this file in batch mode against the lab VM while
# the lab's steps run, and checks its output against each "expect:" line
# (an extended regular expression).
break tainted_proc_show
wb-continue
print/x tainted_mask
backtrace 4
wb-continue
print/x tainted_mask
print (char)taint_flags[12].c_true
# expect: Breakpoint 1, tainted_proc_show
# expect: ^\$1 = 0x0$
# expect: seq_read_iter
# expect: ^\$2 = 0x1040$
# expect: ^\$3 = 79 'O'$
