# fortify-group under gdb: follow run.sh's FORTIFY_MEM_MEMBER into the
# fortify warning, and the checker's FORTIFY_MEM_OBJECT (its last check)
# into fortify_panic().
#
# lkdtm is a module (run.sh's modprobe): stop in do_init_module() for it
# alone (init loads ipv6.ko first, at boot), and load its symbols with
# lx-symbols (the tree's gdb scripts) from the run folder, where vmlinux
# and the modules the VM booted with are. The test's own function is
# then a breakpoint like any other, and only run.sh's trigger reaches it
# (a temporary breakpoint: the checker triggers the test again, after
# reloading lkdtm).
#
# The checks are inline. The field-spanning warning is a WARN_ONCE() in
# the memcpy() macro itself, so __warn_printk() is called straight from
# the test, and gdb shows the size asked for and the sizes of the field
# and of the structure in the test's frame. fortify_panic() is called
# from the inline fortify_memcpy_chk(), which gdb shows as a frame of its
# own, with the four sizes it compared.
#
# The test suite runs this file in batch mode while the lab's steps run,
# and checks its output against each "expect:" line.

break do_init_module if $_streq(mod->name, "lkdtm")
wb-continue
print mod->name
delete 1
python import os; gdb.execute("lx-symbols " + os.path.dirname(gdb.current_progspace().filename))
tbreak lkdtm_FORTIFY_MEM_MEMBER
wb-continue
tbreak __warn_printk
wb-continue
backtrace 2
up
print size
print sizeof(target.a)
print sizeof(target)
break fortify_panic
wb-continue
backtrace 3
print name
# expect: ^\$1 = "lkdtm"
# expect: Temporary breakpoint [0-9]+, lkdtm_FORTIFY_MEM_MEMBER
# expect: __warn_printk
# expect: #1 .*lkdtm_FORTIFY_MEM_MEMBER
# expect: ^\$2 = 15$
# expect: ^\$3 = 10$
# expect: ^\$4 = 20$
# expect: Breakpoint [0-9]+, fortify_panic
# expect: #1 .*fortify_memcpy_chk \(.*p_size=16
# expect: #2 .*lkdtm_FORTIFY_MEM_OBJECT
# expect: ^\$5 = [0-9a-fx]+ "memcpy"
