# shellcheck shell=sh
# What run.sh and check.sh of the networking tour share: the memory
# cgroup, the AMT namespaces, and the small steps both take. Sourced
# after /wb/lib.sh.

W=/tmp/tour-net
CG=/sys/fs/cgroup
CGT=$CG/tour-net
GW="ip netns exec amt-gw"
mkdir -p "$W"

# tour_do CMD...: run CMD, shown first (wb_run) when SHOW is set.
tour_do() {
	if [ -n "${SHOW:-}" ]; then
		wb_run "$@"
	else
		"$@"
	fi
}

# wait_for TENTHS CMD...: run CMD every 0.1 s until it succeeds, at most
# TENTHS times; the status says whether it ever did.
wait_for() {
	n=$1
	shift
	while [ "$n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# ---- neighbour eviction on carrier loss ----

# evict_selftest: run the tree's arp_ndisc_evict_nocarrier.sh as it is;
# its output in $W/evict.out, its status in $W/evict.status (in /tmp, so
# for this boot only: check.sh reads them if run.sh ran the test, and
# runs the test itself otherwise).
evict_selftest() {
	bash /build/arp_ndisc_evict_nocarrier.sh >"$W/evict.out" 2>&1
	echo $? >"$W/evict.status"
}

# ---- SO_RESERVE_MEM ----

# memcg_setup: cgroup v2 on /sys/fs/cgroup, the memory controller given
# to the root's children, and the child tour-net (no limit).
memcg_setup() {
	grep -q "^[^ ]* $CG cgroup2 " /proc/mounts || mount -t cgroup2 cgroup2 "$CG"
	echo +memory >"$CG/cgroup.subtree_control"
	mkdir -p "$CGT"
	echo max >"$CGT/memory.max"
}

# in_memcg CMD...: run CMD as a process of the memory cgroup tour-net
# (the shell moves itself in, then becomes CMD; the caller stays out).
in_memcg() {
	# shellcheck disable=SC2016
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CGT" "$@"
}

# tcp_pressure_bytes: TCP's memory-pressure threshold (tcp_mem[1], in
# pages) in bytes.
tcp_pressure_bytes() {
	echo $(($(cut -f2 /proc/sys/net/ipv4/tcp_mem) * $(getconf PAGESIZE)))
}

# ---- AMT ----

# amt_setup: two namespaces joined by a veth pair, amt-gw (10.0.0.1 on
# gw_relay) and amt-relay (10.0.0.2 on relay_gw), with an AMT relay amtr
# (up; the multicast source of the demo is 172.17.0.1, an address of the
# device itself) and an AMT gateway amtg (created, still down) that will
# look for a relay at 10.0.0.2. Both ends use the IANA port, 2268. With
# SHOW set, each command is shown before it runs (run.sh).
amt_setup() {
	amt_cleanup
	tour_do modprobe amt
	ip netns add amt-gw
	ip netns add amt-relay
	ip -n amt-gw link set lo up
	ip -n amt-relay link set lo up
	tour_do ip -n amt-gw link add gw_relay type veth peer name relay_gw netns amt-relay
	tour_do ip -n amt-gw addr add 10.0.0.1/24 dev gw_relay
	tour_do ip -n amt-relay addr add 10.0.0.2/24 dev relay_gw
	ip -n amt-gw link set gw_relay up
	ip -n amt-relay link set relay_gw up
	tour_do ip -n amt-relay link add amtr type amt mode relay local 10.0.0.2 dev relay_gw \
		relay_port 2268 max_tunnels 4
	tour_do ip -n amt-relay addr add 172.17.0.1/24 dev amtr
	tour_do ip -n amt-relay link set amtr up
	tour_do ip -n amt-gw link add amtg type amt mode gateway local 10.0.0.1 discovery 10.0.0.2 \
		dev gw_relay gateway_port 2268 relay_port 2268
}

amt_cleanup() {
	ip netns del amt-gw 2>/dev/null
	ip netns del amt-relay 2>/dev/null
	return 0
}

# amt_capture: tcpdump in amt-gw on gw_relay, every AMT message into
# $W/amt.pcap, from now until amt_capture_stop.
amt_capture() {
	rm -f "$W/amt.pcap" "$W/tcpdump.err"
	$GW tcpdump -i gw_relay -n -U --immediate-mode -Z root -w "$W/amt.pcap" udp port 2268 \
		2>"$W/tcpdump.err" &
	TCPDUMP=$!
	wait_for 50 grep -q 'listening on' "$W/tcpdump.err"
}

amt_capture_stop() {
	kill "$TCPDUMP"
	wait "$TCPDUMP" 2>/dev/null
	return 0
}

# amt_messages: the AMT messages in $W/amt.pcap, one a line, as
# "gateway > relay: request, 8 bytes" (the RFC 7450 type, 1 to 7, is the
# low four bits of the first byte after the UDP header; the size is the
# UDP payload's). A message that carries a packet says which IP version
# that packet is: "update [IPv4]".
amt_messages() {
	tcpdump -r "$W/amt.pcap" -n -x 2>/dev/null | awk '
		function flush(   ihl, t) {
			if (head == "")
				return
			ihl = index("0123456789abcdef", substr(hex, 2, 1)) - 1
			t = index("0123456789abcdef", substr(hex, 2 * (ihl * 4 + 8) + 2, 1)) - 1
			# query and update carry an IGMP or MLD packet after a
			# 12-byte header, data a multicast packet after 2 bytes
			inner = ""
			if (t in hlen) {
				v = substr(hex, 2 * (ihl * 4 + 8 + hlen[t]) + 1, 1)
				inner = v == "4" ? " [IPv4]" : v == "6" ? " [IPv6]" : " [?]"
			}
			printf "%s: %s%s, %d bytes\n", head, (t in name) ? name[t] : "type " t, inner, len
			head = ""
		}
		BEGIN {
			split("discovery advertisement request query update data teardown", n, " ")
			for (i = 1; i <= 7; i++)
				name[i] = n[i]
			hlen[4] = 12
			hlen[5] = 12
			hlen[6] = 2
			who["10.0.0.1"] = "gateway"
			who["10.0.0.2"] = "relay"
		}
		/^[0-9]/ {
			flush()
			src = $3; dst = $5
			sub(/\.[0-9]+$/, "", src); sub(/\.[0-9]+:$/, "", dst)
			head = who[src] " > " who[dst]
			len = $NF
			hex = ""
			next
		}
		/^\t0x/ {
			for (i = 2; i <= NF; i++)
				hex = hex $i
		}
		END { flush() }'
}

# amt_first_seen: each kind of message (direction and type) once, in
# the order of its first appearance: "gateway>relay:discovery ...".
amt_first_seen() {
	amt_messages | sed 's/ > />/; s/: /:/; s/[ ,].*//' | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//'
}

# amt_count TYPE: how many messages of TYPE were captured so far; TYPE
# may name the version of the packet inside: "update \[IPv4\]".
amt_count() {
	amt_messages | grep -c -- ": $1"
}

# amt_remote: the relay address the gateway uses, as ip shows it
# (empty until an advertisement has given it one).
amt_remote() {
	ip -n amt-gw -d -j link show amtg | jq -r '.[0].linkinfo.info_data.remote // empty'
}

# amt_info NS DEV: the AMT part of "ip -d link show" for DEV in NS.
amt_info() {
	ip -n "$1" -d link show "$2" | sed -n 's/^ *\(amt .*\) addrgenmode.*/\1/p'
}

# amt_has_query: the relay has answered a request with an IGMP
# membership query (from then on the gateway sends its IGMP reports).
amt_has_query() {
	[ "$(amt_count 'query \[IPv4\]')" -gt 0 ]
}

# amt_more TYPE N: more than N messages of TYPE were captured.
amt_more() {
	[ "$(amt_count "$1")" -gt "$2" ]
}
