# Networking: the netfilter egress hook. nftables egress chains and their
# order against tc, an out-of-tree module with its own NF_NETDEV_EGRESS
# hook, and the cost of the hook measured with pktgen (bench.sh).
CHAPTER := 05
TITLE := Netfilter on egress: nft chains, the order against tc, a hook of your own
TIMEOUT := 600
FILES := nfegress.c:module
