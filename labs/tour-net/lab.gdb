# The networking tour under gdb: SO_RESERVE_MEM as sk_setsockopt()
# handles it, refused twice, then charged to the memory cgroup.
#
# The breakpoint is the first line of the option's own case in
# sk_setsockopt() (net/core/sock.c), "delta = val - sk->sk_reserved_mem",
# which nothing but an SO_RESERVE_MEM request reaches; its line number is
# looked up in the tree's source, so that it follows the tree.
# sock_reserve_memory() is inlined there. Its first test is the static
# key memcg_sockets_enabled_key: off until a memory cgroup other than the
# root exists on cgroup v2 (mem_cgroup_css_alloc() raises it), then on;
# its second, sk->sk_memcg: set when the socket was created by a task of
# such a cgroup (mem_cgroup_sk_alloc()), NULL for the root cgroup's.
#
# run.sh asks three times for 1 MiB: before cgroup v2 is mounted (key 0,
# no memcg: -EOPNOTSUPP, -95), from the root cgroup after tour-net was
# made (key 1, still no memcg) and from inside tour-net, where
# mem_cgroup_charge_skmem() charges the 256 pages to that cgroup.
#
# The test suite runs this file in batch mode against the VM while the
# tour's steps run, and checks its output against each "expect:" line.

python
path = gdb.lookup_global_symbol("sk_setsockopt").symtab.fullname()
with open(path) as src:
    line = next(n for n, text in enumerate(src, 1)
                if "delta = val - sk->sk_reserved_mem;" in text)
gdb.execute("break %s:%d" % (path, line))
end
wb-continue
print val
print/x (unsigned long)sk->sk_memcg
print memcg_sockets_enabled_key.key.enabled.counter
finish
wb-continue
print/x (unsigned long)sk->sk_memcg
print memcg_sockets_enabled_key.key.enabled.counter
wb-continue
print sk->sk_memcg->css.cgroup->kn->name
break mem_cgroup_charge_skmem
wb-continue
print nr_pages
print memcg->css.cgroup->kn->name
finish
delete
# expect: Breakpoint 1, sk_setsockopt \(.*optname=(optname@entry=)?73
# expect: ^\$1 = 1048576$
# expect: ^\$2 = 0x0$
# expect: ^\$3 = 0$
# expect: ^Value returned is \$4 = -95$
# expect: ^\$5 = 0x0$
# expect: ^\$6 = 1$
# expect: ^\$7 = 0x[0-9a-f]+ "tour-net"$
# expect: Breakpoint 2, mem_cgroup_charge_skmem \(.*nr_pages=(nr_pages@entry=)?256
# expect: ^\$8 = 256$
# expect: ^\$9 = 0x[0-9a-f]+ "tour-net"$
# expect: ^Value returned is \$10 = true$
