# Networking tour: the chapter's items without a lab.
CHAPTER := 05
TITLE := Tour: neighbour eviction on carrier loss, SO_RESERVE_MEM, AMT
# 240 s, as tour-core: in a soak beside another tour's guests and a
# kernel build (load average 6 on 2 cores), both boots of one check
# passed 120 s, in the AMT step.
TIMEOUT := 240
KIND := tour
FILES := resmem.c:prog mcast.c:prog tools/testing/selftests/net/arp_ndisc_evict_nocarrier.sh:kfile
