# shellcheck shell=sh
# The lab's network, sourced by run.sh and check.sh (after /wb/lib.sh).
#
#   a                             b
#   veth0 10.9.0.1 ------------- veth0 10.9.0.2, 10.9.0.3
#   veth1 10.9.1.1 ---+
#                     |          c
#                     +--------- veth0 10.9.1.2
#
# Three network namespaces. The egress chains sit on a's veth0, the
# ingress side of the order experiment on b's veth0; a's veth1 is where
# tc and nft redirect what b sends to a. The exercise's module works in
# the initial namespace, on its own pair (nfe0 here, nfe1 in namespace
# nfepeer) and on dummy0, which the kernel creates at boot.

NODES="a b c nfepeer"

# In one namespace: A nft ..., B tc ..., C ping ...
A() { ip netns exec a "$@"; }
B() { ip netns exec b "$@"; }
C() { ip netns exec c "$@"; }

topo_down() {
	for n in $NODES; do
		ip netns del "$n" 2>/dev/null || :
	done
	ip link del nfe0 2>/dev/null || :
	return 0
}

topo_up() {
	topo_down
	for n in a b c; do
		ip netns add "$n"
		ip -n "$n" link set lo up
	done
	ip link add veth0 netns a type veth peer name veth0 netns b
	ip link add veth1 netns a type veth peer name veth0 netns c
	ip -n a addr add 10.9.0.1/24 dev veth0
	ip -n a addr add 10.9.1.1/24 dev veth1
	ip -n b addr add 10.9.0.2/24 dev veth0
	ip -n b addr add 10.9.0.3/24 dev veth0
	ip -n c addr add 10.9.1.2/24 dev veth0
	for l in "a veth0" "a veth1" "b veth0" "c veth0"; do
		# shellcheck disable=SC2086
		ip -n ${l% *} link set ${l#* } up
	done
}

# The exercise's pair: nfe0 (10.9.9.1) in the initial namespace, nfe1
# (10.9.9.2) in nfepeer; IPv6 fd09::1 and fd09::2 without duplicate
# address detection, so that both families work at once.
nfe_up() {
	ip netns del nfepeer 2>/dev/null || :
	ip link del nfe0 2>/dev/null || :
	ip netns add nfepeer
	ip link add nfe0 type veth peer name nfe1 netns nfepeer
	ip addr add 10.9.9.1/24 dev nfe0
	ip addr add fd09::1/64 dev nfe0 nodad
	ip -n nfepeer addr add 10.9.9.2/24 dev nfe1
	ip -n nfepeer addr add fd09::2/64 dev nfe1 nodad
	ip link set nfe0 up
	ip -n nfepeer link set lo up
	ip -n nfepeer link set nfe1 up
}

# counter NS TABLE CHAIN COMMENT: the packets counted by the rule of
# that netdev chain, in namespace NS, that carries that comment.
counter() {
	ip netns exec "$1" nft list chain netdev "$2" "$3" 2>/dev/null |
		sed -n "s/.* counter packets \([0-9]*\) bytes .*comment \"$4\".*/\1/p"
}

# tcpkts NS KIND INDEX: the packets a tc action (gact, skbedit, mirred)
# with that index has handled in namespace NS.
tcpkts() {
	ip netns exec "$1" tc -s actions get action "$2" index "$3" 2>/dev/null |
		sed -n 's/.*Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p' | head -n 1
}

# txpkts NS DEV: the packets the device has transmitted.
txpkts() {
	ip netns exec "$1" cat "/sys/class/net/$2/statistics/tx_packets"
}

# hooks [NS]: the patch's view of the netdev hooks, in the initial
# namespace or in NS.
hooks() {
	if [ -n "${1:-}" ]; then
		ip netns exec "$1" cat /proc/net/netfilter/nf_netdev_hooks
	else
		cat /proc/net/netfilter/nf_netdev_hooks
	fi
}

# egress_key: the count of the egress static key, from the first line.
egress_key() {
	sed -n 's/^key ingress [-0-9]* egress \([-0-9]*\)$/\1/p' \
		/proc/net/netfilter/nf_netdev_hooks 2>/dev/null
}

# devhooks DEV [NS]: "ingress N egress M" for one device.
devhooks() {
	hooks "${2:-}" 2>/dev/null | sed -n "s/^dev $1 //p"
}

# pings NS ARGS...: ping quietly, 0.2 s apart; the status says whether
# any reply came.
pings() {
	ns=$1
	shift
	ip netns exec "$ns" ping -q -i 0.2 -W 1 "$@" >/dev/null 2>&1
}
