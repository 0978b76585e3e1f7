# shellcheck shell=sh
# pktgen, the kernel's packet generator (built in), driven through
# /proc/net/pktgen. Sourced by run.sh, check.sh and bench.sh.
#
# One device, one kernel thread (kpktgend_0, on CPU 0). queue_xmit mode
# sends each packet through dev_queue_xmit(), the path that has the
# netfilter egress hook and tc egress; the default mode would call the
# driver directly and skip both. A packet that the hook or tc drops is
# not "sent": pktgen counts it in "errors", not in "sofar".

PG=/proc/net/pktgen

pg() {
	echo "$2" >"$PG/$1"
}

# pg_setup DEV COUNT: send COUNT UDP packets of 60 bytes (0: until
# stopped) to 198.18.0.42 through DEV.
pg_setup() {
	pg pgctrl reset
	pg kpktgend_0 rem_device_all
	pg kpktgend_0 "add_device $1"
	pg "$1" "count $2"
	pg "$1" "pkt_size 60"
	pg "$1" "delay 0"
	pg "$1" "flag NO_TIMESTAMP"
	pg "$1" "dst 198.18.0.42"
	pg "$1" "dst_mac 02:00:00:00:00:01"
	pg "$1" "xmit_mode queue_xmit"
}

# pg_run: send COUNT packets; returns when they are sent.
pg_run() {
	pg pgctrl start
}

# pg_start / pg_stop: run in the background until stopped.
pg_start() {
	pg pgctrl start &
	PG_PID=$!
}

pg_stop() {
	pg pgctrl stop
	wait "$PG_PID" 2>/dev/null || :
}

# pg_result DEV: "USEC SENT ERRORS" of the last run.
pg_result() {
	awk '
		/Result: OK:/ { sub(/\(.*/, "", $3); usec = $3 }
		/Result: OK:/ { for (i = 1; i <= NF; i++) if ($i == "usec,") sent = $(i + 1) }
		/errors:/ { for (i = 1; i <= NF; i++) if ($i == "errors:") err = $(i + 1) }
		END { print usec, sent, err }' "$PG/$1"
}
