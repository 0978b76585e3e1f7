# A dump's first page, for drgn: run by vm/postmortem.sh as
#   drgn -c DUMP/vmcore -s DUMP/vmlinux -s MODULE.ko... vm/postmortem.py DUMP
# It prints where the kernel was when the dump was taken: the end of the
# kernel log, the task that crashed (or, for a hang, the tasks blocked in
# the kernel) with its stack and the locals of the lab's own frames, the
# lab's modules, and the commands to go on with in drgn.
# drgn gives this script `prog`, the kernel of the dump.
import os
import re
import sys

from drgn.helpers.linux.list import list_for_each_entry
from drgn.helpers.linux.percpu import per_cpu
from drgn.helpers.linux.pid import for_each_task
from drgn.helpers.linux.printk import get_dmesg

DUMP = sys.argv[1] if len(sys.argv) > 1 else "."
LAB_MODULES = {
    name[:-3]
    for name in os.listdir(os.path.join(DUMP, "ko"))
    if name.endswith(".ko")
} if os.path.isdir(os.path.join(DUMP, "ko")) else set()


def said(name):
    try:
        with open(os.path.join(DUMP, name)) as f:
            return f.read().split()
    except OSError:
        return []


def heading(text):
    print()
    print("== " + text)


def in_lab(frame):
    try:
        sym = frame.symbol()
    except LookupError:
        return False
    try:
        src = frame.source()[0]
    except LookupError:
        src = ""
    return "/.mod-" in src or any(sym.name.startswith(m) for m in LAB_MODULES)


def show_stack(trace):
    print(trace)
    for i, frame in enumerate(trace):
        if not in_lab(frame):
            continue
        print()
        print("locals of #%d %s (the lab's code):" % (i, frame.name))
        for name in frame.locals():
            try:
                value = frame[name]
                text = value.format_(dereference=False, columns=70)
            except Exception as e:  # an optimized-out or unreadable local
                text = "<%s>" % e
            print("  %s = %s" % (name, text))


info = said("dump.info")
lab = said("lab")
variant = said("variant")
why = info[0] if info else "?"
print("%s of lab %s (%s)%s"
      % ("Snapshot" if why == "snapshot" else "Dump",
         lab[0] if lab else "?", variant[0] if variant else "?",
         ", its guest still running" if why == "snapshot" else ", taken at the " + why))

# The kernel log from the start of its last report (a panic, an oops, a
# hang), or its last 20 lines.
heading("the kernel log, from its last report")
log = get_dmesg(prog).decode(errors="replace").splitlines()
REPORT = re.compile(r"Kernel panic - not syncing|BUG: |Oops:|INFO: task |"
                    r"rcu: INFO|unregister_netdevice: waiting")
starts = [i for i, line in enumerate(log) if REPORT.search(line)]
first = starts[-1] if starts else max(len(log) - 20, 0)
# A panic that an oops became (panic_on_oops: "Fatal exception") is
# shown with that oops, from the first report line of the 60 before it.
if starts and "Fatal exception" in log[first]:
    near = [s for s in starts if first - 60 <= s < first]
    if near:
        first = near[0]
for line in log[first:first + 80]:
    print(line)

# The task that panicked: the one running on panic_cpu. drgn 0.0.22
# (Debian 12) takes the first CPU of a QEMU dump for the crashed one and
# cannot unwind a CPU that QEMU stopped from its registers alone: the
# panicking task's stack is then the one the kernel logged (above), and
# crash's bt unwinds it (make postmortem TOOL=crash).
panic_cpu = prog["panic_cpu"].counter.value_()
if panic_cpu >= 0:
    task = per_cpu(prog["runqueues"], panic_cpu).curr
    heading("the task that panicked: %s, pid %d, on CPU %d"
            % (task.comm.string_().decode(), task.pid.value_(), panic_cpu))
    trace = prog.stack_trace(task)
    if len(trace) > 2:
        show_stack(trace)
    else:
        print("its stack is the one the kernel logged above (drgn cannot unwind a")
        print("CPU that QEMU stopped; crash can: make postmortem TOOL=crash)")

# A hang or a timeout: the tasks blocked in the kernel, whose stacks are
# saved in their task_struct, with the locals of the lab's frames.
heading("the tasks blocked in the kernel (state D)")
shown = 0
for task in for_each_task(prog):
    if task.__state.value_() != 2 or shown >= 5:  # TASK_UNINTERRUPTIBLE
        continue
    shown += 1
    print()
    print("%s, pid %d:" % (task.comm.string_().decode(), task.pid.value_()))
    show_stack(prog.stack_trace(task))
if not shown:
    print("none")

heading("the lab's modules in the kernel")
found = 0
for mod in list_for_each_entry("struct module", prog["modules"].address_of_(), "list"):
    name = mod.name.string_().decode()
    if name in LAB_MODULES:
        found += 1
        print("%s at %s" % (name, hex(mod.core_layout.base.value_())))
if not found:
    print("none of %s" % (", ".join(sorted(LAB_MODULES)) or "the lab's (it has none)"))

heading("to go on, in drgn (make postmortem LAB=... without BATCH=1)")
print("  trace = prog.stack_trace(find_task(prog, PID)); trace    a task's stack")
print("  trace[N].locals(); trace[N]['name']                       a frame's locals")
print("  print(get_dmesg(prog).decode())                           the whole log")
print("  for t in for_each_task(prog): print(t.pid, t.comm)        every task")
print("  prog['symbol']                                            any global")
