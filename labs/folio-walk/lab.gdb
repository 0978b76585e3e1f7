# folio-walk under gdb, while run.sh loads the module, walks its first
# file (4 MiB on tmpfs with huge=always) and reads cc_attrs.
#
# 1. The first call of cc_platform_has() at boot, and who made it: the
#    guest boots the same way every time, on one CPU that early, so the
#    first call is always the same one, setup_ghcb() asking whether the
#    guest's register state is encrypted (SEV-ES) while the boot CPU
#    sets up its first interrupt table, before start_kernel().
# 2. do_init_module() for folio_walk, the only module the lab loads
#    (the condition skips ipv6.ko, which init loads at boot):
#    lx-symbols (from the tree's gdb scripts) then loads its symbols
#    from the lab's build folder, which vm/lab.sh writes in the run
#    folder, beside the vmlinux gdb was given.
# 3. fw_show_folio() for the first folio of the walk: the head of a
#    2 MiB folio. It is a head page (PG_head), the page after it is a
#    tail whose compound_head points back to it with bit 0 set, and its
#    order is in the second page (_folio_order), which is why
#    folio_order() must check folio_test_large() first.
# 4. cc_platform_has() again, now called by the module's cc_attrs file:
#    the breakpoint is set only after the walk, and only stops when the
#    caller is fw_cc_attrs_show(), so that no other caller can come
#    first. cc_vendor says why the answer is false.
#
# The test suite runs this file in batch mode against the lab VM while
# the lab's steps run, and checks its output against each "expect:" line
# (an extended regular expression).
break cc_platform_has
wb-continue
print attr
backtrace 3
delete
break do_init_module if $_streq(mod->name, "folio_walk")
wb-continue
print mod->name
python import os; d = os.path.dirname(gdb.current_progspace().filename); gdb.execute("lx-symbols " + open(os.path.join(d, "build")).read().strip())
delete 2
break fw_show_folio
wb-continue
print folio->index
print folio->_folio_order
print/x folio->flags
print (folio->flags >> PG_head) & 1
print/x ((struct page *)folio)[1].compound_head
print ((struct page *)folio)[1].compound_head & 1
print (struct folio *)(((struct page *)folio)[1].compound_head - 1) == folio
print folio->_refcount
print *folio
backtrace 3
delete
break cc_platform_has if $_caller_is("fw_cc_attrs_show")
wb-continue
print attr
print cc_vendor
backtrace 4
finish
delete
# expect: Breakpoint 1, cc_platform_has \(attr=(attr@entry=)?CC_ATTR_GUEST_STATE_ENCRYPT\)
# expect: ^\$1 = CC_ATTR_GUEST_STATE_ENCRYPT$
# expect: ^#1 .* in setup_ghcb \(
# expect: ^#2 .* in early_setup_idt \(
# expect: Breakpoint 2, do_init_module
# expect: ^\$2 = "folio_walk"
# expect: loading @0x[0-9a-f]+: .*/folio_walk\.ko
# expect: Breakpoint 3, fw_show_folio
# expect: ^\$3 = 0$
# expect: ^\$4 = 9 '\\t'$
# expect: ^\$5 = 0x[0-9a-f]+$
# expect: ^\$6 = 1$
# expect: ^\$7 = 0xffffea[0-9a-f]*[13579bdf]$
# expect: ^\$8 = 1$
# expect: ^\$9 = 1$
# expect: ^\$10 = \{counter = 513\}$
# expect: ^\$11 = .*index = 0, .*_folio_order = 9 '
# expect: ^#1 .* in fw_walk \(
# expect: Breakpoint 4, cc_platform_has \(attr=(attr@entry=)?CC_ATTR_MEM_ENCRYPT\)
# expect: ^\$12 = CC_ATTR_MEM_ENCRYPT$
# expect: ^\$13 = CC_VENDOR_NONE$
# expect: ^#1 .* in fw_cc_attrs_show \(
# expect: ^#2 .* in seq_read_iter \(
# expect: ^Value returned is \$14 = false$
