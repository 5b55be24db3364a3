# shellcheck shell=sh
# Results of a guest script as KTAP version 1, the format KUnit prints,
# for harness/check.py (docs/testing.md, "How results travel").  Source it,
# then:
#   ktap_start NAME [N]   open the document NAME (N results, when known)
#   ktap_ok NAME [DATA]   a pass ("ok 3 NAME # DATA")
#   ktap_fail NAME [WHY]  a failure, WHY as a diagnostic line before it
#   ktap_skip NAME [WHY]  a skip ("ok 3 NAME # SKIP WHY")
#   ktap_xfail NAME [WHY] an expected failure ("ok 3 NAME # XFAIL WHY")
#   ktap_bad NAME [DIRECTIVE] a failure with a directive ("not ok 3 NAME # UNRESOLVED")
#   ktap_diag TEXT        diagnostic lines, one per line of TEXT
#   ktap_end              close the document: the plan if ktap_start had
#                         none, then "ok 1 NAME", or "not ok" if any
#                         result failed; true if none did
# A document is one subtest NAME of its own top-level document, named by
# the diagnostic "# harness: NAME", as KUnit nests a suite:
#   KTAP version 1
#   # harness: bootcheck
#   1..1
#       KTAP version 1
#       # Subtest: bootcheck
#       ok 1 current_tracer
#       # set_ftrace_filter: reads '', not 'vfs_read'
#       not ok 2 set_ftrace_filter
#   not ok 1 bootcheck
# The closing line is the document's end: one the host does not see was
# cut off.  A result's name cannot hold "#"; it becomes "_".
ktap_name='' ktap_n=0 ktap_failed=0 ktap_planned=0

ktap_start() {
	ktap_name=$1 ktap_n=0 ktap_failed=0 ktap_planned=0
	printf 'KTAP version 1\n# harness: %s\n1..1\n    KTAP version 1\n    # Subtest: %s\n' "$1" "$1"
	[ -z "${2:-}" ] || { echo "    1..$2"; ktap_planned=1; }
}

ktap_diag() {
	printf '%s\n' "$*" | sed 's/^/    # /'
}

# ktap_line ok|not ok NAME [DIRECTIVE-AND-DATA]
ktap_line() {
	ktap_n=$((ktap_n + 1))
	case "$2" in *'#'*) set -- "$1" "$(echo "$2" | tr '#' _)" "${3:-}" ;; esac
	echo "    $1 $ktap_n $2${3:+ # $3}"
}

ktap_ok() { ktap_line ok "$1" "${2:-}"; }
ktap_skip() { ktap_line ok "$1" "SKIP${2:+ $2}"; }
ktap_xfail() { ktap_line ok "$1" "XFAIL${2:+ $2}"; }
ktap_fail() {
	case "$1" in *'#'*) set -- "$(echo "$1" | tr '#' _)" "${2:-}" ;; esac
	[ -z "${2:-}" ] || ktap_diag "$1: $2"
	ktap_failed=$((ktap_failed + 1))
	ktap_line 'not ok' "$1"
}
ktap_bad() {
	ktap_failed=$((ktap_failed + 1))
	ktap_line 'not ok' "$1" "${2:-}"
}

ktap_end() {
	# Without a plan up front, the count goes last: a stray line that
	# looks like a result then disagrees with it.
	[ "$ktap_planned" = 1 ] || echo "    1..$ktap_n"
	if [ "$ktap_failed" = 0 ]; then echo "ok 1 $ktap_name"; else echo "not ok 1 $ktap_name"; fi
	[ "$ktap_failed" = 0 ]
}
