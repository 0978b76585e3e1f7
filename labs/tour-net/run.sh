#!/bin/sh
# The networking tour, in the workbook VM: neighbour entries kept or
# flushed on carrier loss, SO_RESERVE_MEM inside and outside a memory
# cgroup, and an AMT gateway that receives multicast through a relay.
set -u
[ -r /wb/lib.sh ] || { echo "run this inside the workbook VM: make lab LAB=tour-net" >&2; exit 1; }
. /wb/lib.sh
. /lab/tour.sh

echo "== 1. arp_evict_nocarrier and ndisc_evict_nocarrier"
echo "# both default to 1: a device that loses its carrier loses its neighbours"
wb_run sysctl net.ipv4.conf.all.arp_evict_nocarrier net.ipv4.conf.default.arp_evict_nocarrier \
	net.ipv6.conf.all.ndisc_evict_nocarrier net.ipv6.conf.default.ndisc_evict_nocarrier
echo "# the tree's own test, unmodified: three IPv4 cases, three IPv6 cases"
echo "# bash /build/arp_ndisc_evict_nocarrier.sh"
evict_selftest
cat "$W/evict.out"
echo "# status $(cat "$W/evict.status")"
echo "# the same by hand, IPv4: nb0 (10.0.20.1) in namespace nb-me, its peer nb1 (10.0.20.2) in nb-peer"
ip netns del nb-me 2>/dev/null
ip netns del nb-peer 2>/dev/null
ip netns add nb-me
ip netns add nb-peer
ip -n nb-me link add nb0 type veth peer name nb1 netns nb-peer
ip -n nb-me addr add 10.0.20.1/24 dev nb0
ip -n nb-peer addr add 10.0.20.2/24 dev nb1
ip -n nb-me link set nb0 up
ip -n nb-peer link set nb1 up
nb0_nocarrier() {
	ip -n nb-me link show nb0 | grep -q NO-CARRIER
}
for keep in 1 0; do
	wb_run ip netns exec nb-me sysctl -w net.ipv4.conf.nb0.arp_evict_nocarrier=$keep
	ip -n nb-peer link set nb1 up
	ip netns exec nb-me ping -q -c 1 -W 2 10.0.20.2 >/dev/null
	wb_run ip -n nb-me neigh show dev nb0
	echo "# the peer goes down, nb0 loses its carrier (NO-CARRIER once the kernel has seen it):"
	wb_run ip -n nb-peer link set nb1 down
	# the kernel acts when its link watcher has handled the carrier
	# change (NETDEV_CHANGE), which for this pair may take a second
	wait_for 30 nb0_nocarrier
	wb_run ip -n nb-me link show nb0
	wb_run ip -n nb-me neigh show dev nb0
done
ip netns del nb-me
ip netns del nb-peer

echo "== 2. SO_RESERVE_MEM"
echo "# no cgroup v2 mounted yet, so no memory cgroup anywhere:"
wb_run /build/resmem 1048576
echo "# cgroup v2, its memory controller for the children of the root, one child:"
grep -q "^[^ ]* $CG cgroup2 " /proc/mounts || wb_run mount -t cgroup2 cgroup2 "$CG"
wb_run sh -c "echo +memory > $CG/cgroup.subtree_control"
wb_run mkdir -p "$CGT"
echo "# this shell is still in the root cgroup, whose sockets are not charged to any memory cgroup:"
wb_run /build/resmem 1048576
echo "# a process moved into tour-net first, then the same request:"
wb_run sh -c "echo \$\$ > $CGT/cgroup.procs && exec /build/resmem 1048576"
echo "# the reservation is counted in whole pages:"
wb_run sh -c "echo \$\$ > $CGT/cgroup.procs && exec /build/resmem 5000"
echo "# TCP's thresholds (pages); a reservation that crosses the middle one, pressure, is refused:"
wb_run cat /proc/sys/net/ipv4/tcp_mem
big=$(($(tcp_pressure_bytes) + 4096))
wb_run sh -c "echo \$\$ > $CGT/cgroup.procs && exec /build/resmem $big"
echo "# so is one that does not fit in the cgroup's limit:"
wb_run sh -c "echo 4M > $CGT/memory.max"
wb_run sh -c "echo \$\$ > $CGT/cgroup.procs && exec /build/resmem 8388608"
wb_run grep '^max ' "$CGT/memory.events"
echo max >"$CGT/memory.max"

echo "== 3. Automatic Multicast Tunneling: a gateway and a relay in two namespaces"
SHOW=1 amt_setup
wb_run ip -n amt-relay -d link show amtr
wb_run ip -n amt-gw -d link show amtg
echo "# every AMT message on gw_relay is captured from now on (tcpdump in amt-gw)"
amt_capture
wb_run ip -n amt-gw link set amtg up
wait_for 50 amt_has_query
echo "# the gateway found its relay:"
wb_run ip -n amt-gw -d link show amtg
echo "# a receiver on the gateway joins 239.1.2.3 on amtg; its IGMP report goes to the relay in the tunnel"
updates=$(amt_count 'update \[IPv4\]')
echo "# ip netns exec amt-gw /build/mcast recv 239.1.2.3 5000 amtg 5000 &"
$GW /build/mcast recv 239.1.2.3 5000 amtg 5000 >"$W/recv.out" &
recv=$!
wait_for 50 grep -q joined "$W/recv.out"
wait_for 50 amt_more 'update \[IPv4\]' "$updates"
echo "# a sender on the relay's side sends one datagram to the group, out of amtr:"
wb_run ip netns exec amt-relay /build/mcast send 239.1.2.3 5000 amtr "hello through the AMT tunnel"
wait "$recv"
echo "# what the receiver printed:"
cat "$W/recv.out"
amt_capture_stop
echo "# the AMT messages that crossed gw_relay (tcpdump -w, decoded by amt_messages in tour.sh):"
amt_messages
wb_run ip -n amt-gw -s link show amtg
amt_cleanup
