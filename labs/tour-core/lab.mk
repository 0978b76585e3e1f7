# Core kernel tour: the chapter's items without a lab, shown in one boot.
CHAPTER := 02
TITLE := Tour: futex_waitv(), tracefs owners, unprivileged BPF, bpf_trace_vprintk()
TIMEOUT := 120
KIND := tour
