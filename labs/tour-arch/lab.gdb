# tour-arch under gdb-multiarch: the Arm guest (make check attaches this
# script to it; make gdb LAB=tour-arch with WB_GUEST=arm64 is the same
# by hand).
#
# The guest stops at the sync(2) of its first steps, after the
# alternatives were applied to the whole kernel. The counter read that
# arch_timer_read_counter points at is then "isb; mrs x0, cntvct_el0":
# on a CPU with FEAT_ECV, the alternative ARM64_HAS_ECV would have put
# "nop; mrs x0, cntvctss_el0" there (s3_3_c14_c0_6, the
# self-synchronised read that needs no barrier). The boot CPU's ID
# register, as the kernel read it at boot (struct cpuinfo_arm64 in the
# per-CPU cpu_data), has ECV, bits 63:60 of ID_AA64MMFR0_EL1, at 0. The
# topology the device tree's cpu-map gave: CPU 3 is in cluster 1.
break __arm64_sys_sync
wb-continue
print arch_timer_read_counter
x/2i arch_timer_read_counter
print ((struct cpuinfo_arm64 *)((char *)&cpu_data + __per_cpu_offset[0]))->reg_id_aa64mmfr0 >> 60
print cpu_topology[3].cluster_id
delete
# expect: Breakpoint 1, .*__arm64_sys_sync
# expect: ^\$1 = .*<arch_counter_get_cntvct>$
# expect: <arch_counter_get_cntvct>:\s+isb$
# expect: <arch_counter_get_cntvct\+4>:\s+mrs\s+x0, cntvct_el0$
# expect: ^\$2 = 0$
# expect: ^\$3 = 1$
