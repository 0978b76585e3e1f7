# Networking tour: the chapter's items without a lab.
CHAPTER := 05
TITLE := Tour: neighbour eviction on carrier loss, SO_RESERVE_MEM, AMT
TIMEOUT := 120
KIND := tour
FILES := resmem.c:prog mcast.c:prog tools/testing/selftests/net/arp_ndisc_evict_nocarrier.sh:kfile
