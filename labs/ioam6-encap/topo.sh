# shellcheck shell=sh
# TRACE and PING_STATUS are read by the scripts that source this one.
# shellcheck disable=SC2034
# The lab's topology, sourced by run.sh and check.sh (after /wb/lib.sh).
#
#   alpha                      beta                        gamma
#   veth0 db01::2 ----- db01::1 veth0   veth1 db02::1 ----- db02::2 veth0
#   lo    db03::1 (a second source address for alpha)
#
# One IOAM namespace, 123, on every node. Node ids 1, 2, 3; interface ids
# 11 (alpha veth0), 21 and 22 (beta veth0 and veth1), 31 (gamma veth0).
# Beta and gamma add their record on input (ioam6_enabled on the
# receiving interface); alpha writes its record when its route inserts
# the trace. Alpha also has a schema, 7, attached to namespace 123.

NODES="alpha beta gamma"
# Trace type 0xc00000: bit 0 (hop limit and node id) and bit 1 (ingress
# and egress interface ids), 8 bytes per node; 24 bytes hold three nodes.
TRACE="trace prealloc type 0xc00000 ns 123 size 24"

nsx() {
	ns=$1
	shift
	ip netns exec "$ns" "$@"
}

topo_down() {
	for n in $NODES; do
		echo "netns del $n"
	done | ip -force -batch - 2>/dev/null || :
	return 0
}

# topo_up builds the topology above from nothing. Under TCG each program
# start costs about 0.1 s, so each namespace gets its settings from one
# ip -batch and one sysctl rather than a command per line.
topo_up() {
	topo_down
	# ip6tnl0, the fallback device of ip6_tunnel, in every namespace: the
	# encap mode's tunnel endpoints decapsulate through it.
	modprobe ip6_tunnel
	ip -batch - <<-EOF
		netns add alpha
		netns add beta
		netns add gamma
		link add veth0 netns alpha type veth peer name veth0 netns beta
		link add veth1 netns beta type veth peer name veth0 netns gamma
	EOF

	# nodad: the addresses are usable at once, no duplicate detection.
	# The decapsulating ends of the tunnels (beta, gamma): the fallback
	# ip6ip6 device that every namespace gets when IPV6_TUNNEL is built.
	ip -n alpha -batch - <<-EOF
		link set lo up
		addr add db01::2/64 dev veth0 nodad
		addr add db03::1/128 dev lo
		link set veth0 up
		route add db02::/64 via db01::1 dev veth0
		ioam namespace add 123 data $((0xdeadbee1))
		ioam schema add 7 "alpha edge"
		ioam namespace set 123 schema 7
	EOF
	ip -n beta -batch - <<-EOF
		link set lo up
		addr add db01::1/64 dev veth0 nodad
		addr add db02::1/64 dev veth1 nodad
		link set veth0 up
		link set veth1 up
		route add db03::1/128 via db01::2 dev veth0
		ioam namespace add 123 data $((0xdeadbee2))
		link set ip6tnl0 up
	EOF
	ip -n gamma -batch - <<-EOF
		link set lo up
		addr add db02::2/64 dev veth0 nodad
		link set veth0 up
		route add db01::/64 via db02::1 dev veth0
		route add db03::1/128 via db02::1 dev veth0
		ioam namespace add 123 data $((0xdeadbee3))
		link set ip6tnl0 up
	EOF
	nsx alpha sysctl -qw net.ipv6.ioam6_id=1 net.ipv6.ioam6_id_wide=1111 \
		net.ipv6.conf.veth0.ioam6_id=11
	nsx beta sysctl -qw net.ipv6.ioam6_id=2 net.ipv6.ioam6_id_wide=2222 \
		net.ipv6.conf.all.forwarding=1 \
		net.ipv6.conf.veth0.ioam6_id=21 net.ipv6.conf.veth1.ioam6_id=22 \
		net.ipv6.conf.veth0.ioam6_enabled=1
	nsx gamma sysctl -qw net.ipv6.ioam6_id=3 net.ipv6.ioam6_id_wide=3333 \
		net.ipv6.conf.veth0.ioam6_id=31 net.ipv6.conf.veth0.ioam6_enabled=1

	# Fill the neighbour caches before anything is captured.
	nsx alpha ping -c 1 -W 5 db02::2 >/dev/null 2>&1 || :
	nsx alpha ping -c 1 -W 5 -I db03::1 db02::2 >/dev/null 2>&1 || :
	nsx beta ping -c 1 -W 5 db02::2 >/dev/null 2>&1 || :
	nsx gamma ping -c 1 -W 5 db02::1 >/dev/null 2>&1 || :
	return 0
}

# capture_start NODE DEV FILE: tcpdump on NODE's DEV into FILE, every
# IPv6 packet but the link's own chatter: neighbour and router discovery
# (ICMPv6 133 to 137) and MLD (a hop-by-hop header with a router alert,
# option 5, first). What is left is the pings, with or without IOAM, so
# a ping answered through the capture point is two packets, and tcpdump
# ends by itself once it has written them (-c 2). Returns once tcpdump
# listens.
capture_start() {
	rm -f "$3" "$3.err"
	# -Z root: tcpdump keeps root and can write where root writes.
	# --immediate-mode: no ring-buffer block timeout, so the packets
	# reach the file as they come.
	ip netns exec "$1" tcpdump -Z root --immediate-mode -n -U -c 2 -i "$2" -w "$3" \
		'ip6 and not (icmp6 and ip6[40] >= 133 and ip6[40] <= 137) and not (ip6[6] == 0 and ip6[42] == 5)' \
		2>"$3.err" &
	CAPTURE_PID=$!
	CAPTURE_FILE=$3
	n=0
	while ! grep -q listening "$3.err" 2>/dev/null && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

# capture_stop [ANSWERED]: end the capture. After a ping that was
# answered (ANSWERED is 0, a ping's status), tcpdump ends once it has
# the request and the reply, which can still be on their way to the file:
# wait for that, 5 s at most. A request that went unanswered leaves
# tcpdump waiting for a second packet that will not come: half a second
# for the request to reach the file, then TERM.
capture_stop() {
	n=0
	if [ "${1:-1}" = 0 ]; then
		while kill -0 "$CAPTURE_PID" 2>/dev/null && [ $n -lt 100 ]; do
			sleep 0.05
			n=$((n + 1))
		done
	else
		sleep 0.5
	fi
	kill -TERM "$CAPTURE_PID" 2>/dev/null || :
	wait "$CAPTURE_PID" 2>/dev/null || :
	[ -s "$CAPTURE_FILE" ] || sed 's/^/# tcpdump: /' "$CAPTURE_FILE.err"
}

# ping1 NODE [ping options] ADDRESS: one echo request, quietly.
ping1() {
	n=$1
	shift
	nsx "$n" ping -c 1 -W 1 "$@" >/dev/null 2>&1
}

# probe NODE DEV FILE [ping options] ADDRESS: one ping from alpha (or the
# node named by PING_FROM) while NODE captures on DEV into FILE.
probe() {
	node=$1 dev=$2 file=$3
	shift 3
	capture_start "$node" "$dev" "$file"
	ping1 "${PING_FROM:-alpha}" "$@"
	PING_STATUS=$?
	capture_stop "$PING_STATUS"
	return 0
}
