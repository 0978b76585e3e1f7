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
		ip netns del "$n" 2>/dev/null || :
	done
	return 0
}

topo_up() {
	topo_down
	# ip6tnl0, the fallback device of ip6_tunnel, in every namespace: the
	# encap mode's tunnel endpoints decapsulate through it.
	modprobe ip6_tunnel
	for n in $NODES; do
		ip netns add "$n"
		ip -n "$n" link set lo up
	done
	ip link add veth0 netns alpha type veth peer name veth0 netns beta
	ip link add veth1 netns beta type veth peer name veth0 netns gamma

	# nodad: the addresses are usable at once, no duplicate detection.
	ip -n alpha addr add db01::2/64 dev veth0 nodad
	ip -n alpha addr add db03::1/128 dev lo
	ip -n beta addr add db01::1/64 dev veth0 nodad
	ip -n beta addr add db02::1/64 dev veth1 nodad
	ip -n gamma addr add db02::2/64 dev veth0 nodad
	for l in "alpha veth0" "beta veth0" "beta veth1" "gamma veth0"; do
		# shellcheck disable=SC2086
		ip -n ${l% *} link set ${l#* } up
	done
	ip -n alpha -6 route add db02::/64 via db01::1 dev veth0
	ip -n beta -6 route add db03::1/128 via db01::2 dev veth0
	ip -n gamma -6 route add db01::/64 via db02::1 dev veth0
	ip -n gamma -6 route add db03::1/128 via db02::1 dev veth0

	nsx beta sysctl -qw net.ipv6.conf.all.forwarding=1
	i=1
	for n in $NODES; do
		nsx "$n" sysctl -qw net.ipv6.ioam6_id=$i
		nsx "$n" sysctl -qw net.ipv6.ioam6_id_wide=$((i * 1111))
		ip -n "$n" ioam namespace add 123 data $((0xdeadbee0 + i))
		i=$((i + 1))
	done
	nsx alpha sysctl -qw net.ipv6.conf.veth0.ioam6_id=11
	nsx beta sysctl -qw net.ipv6.conf.veth0.ioam6_id=21
	nsx beta sysctl -qw net.ipv6.conf.veth1.ioam6_id=22
	nsx gamma sysctl -qw net.ipv6.conf.veth0.ioam6_id=31
	nsx beta sysctl -qw net.ipv6.conf.veth0.ioam6_enabled=1
	nsx gamma sysctl -qw net.ipv6.conf.veth0.ioam6_enabled=1
	ip -n alpha ioam schema add 7 "alpha edge"
	ip -n alpha ioam namespace set 123 schema 7

	# The decapsulating ends of the tunnels: the fallback ip6ip6 device
	# that every namespace gets when IPV6_TUNNEL is built in.
	ip -n beta link set ip6tnl0 up
	ip -n gamma link set ip6tnl0 up

	# Fill the neighbour caches before anything is captured.
	nsx alpha ping -c 1 -W 5 db02::2 >/dev/null 2>&1 || :
	nsx alpha ping -c 1 -W 5 -I db03::1 db02::2 >/dev/null 2>&1 || :
	nsx beta ping -c 1 -W 5 db02::2 >/dev/null 2>&1 || :
	nsx gamma ping -c 1 -W 5 db02::1 >/dev/null 2>&1 || :
	return 0
}

# capture_start NODE DEV FILE: tcpdump on NODE's DEV, IPv6 packets
# except neighbour discovery, into FILE; returns once tcpdump listens.
capture_start() {
	rm -f "$3" "$3.err"
	# -Z root: tcpdump keeps root and can write where root writes.
	# --immediate-mode: no ring-buffer block timeout, so the packets
	# are in the file before capture_stop ends tcpdump.
	ip netns exec "$1" tcpdump -Z root --immediate-mode -n -U -i "$2" -w "$3" \
		'ip6 and not (icmp6 and (ip6[40] == 135 or ip6[40] == 136))' \
		2>"$3.err" &
	CAPTURE_PID=$!
	CAPTURE_FILE=$3
	n=0
	while ! grep -q listening "$3.err" 2>/dev/null && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

capture_stop() {
	sleep 0.5
	kill -TERM "$CAPTURE_PID" 2>/dev/null
	wait "$CAPTURE_PID" 2>/dev/null || :
	[ -s "$CAPTURE_FILE" ] || sed 's/^/# tcpdump: /' "$CAPTURE_FILE.err"
}

# ping1 NODE [ping options] ADDRESS: one echo request, quietly.
ping1() {
	n=$1
	shift
	nsx "$n" ping -c 1 -W 2 "$@" >/dev/null 2>&1
}

# probe NODE DEV FILE [ping options] ADDRESS: one ping from alpha (or the
# node named by PING_FROM) while NODE captures on DEV into FILE.
probe() {
	node=$1 dev=$2 file=$3
	shift 3
	capture_start "$node" "$dev" "$file"
	ping1 "${PING_FROM:-alpha}" "$@"
	PING_STATUS=$?
	capture_stop
	return 0
}
