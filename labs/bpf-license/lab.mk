# Core kernel: what a declared license allows. One BPF object loaded
# under several license strings (the verifier refuses a GPL-only helper
# to the non-GPL ones) and one module built under two licenses (the
# loader refuses an EXPORT_SYMBOL_GPL symbol to the proprietary one).
CHAPTER := 02
TITLE := GPL-only helpers and symbols: one BPF program and one module under two licenses
TIMEOUT := 300
FILES := helpers.bpf.c:bpf licload.c:prog licmod.c:module
LDLIBS := -lbpf -lelf -lz
HOSTBUILD := hostbuild.sh
