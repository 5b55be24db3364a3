#!/bin/sh
# The differential battery (guest mode harness=diff; make diff): one
# scenario for every tracefs syntax and file of dynamic ftrace that
# Documentation/trace/ftrace.rst and ftrace-core.rst describe, printed as a
# user sees it, so that the host (harness/diff.py) can compare our core's
# output with 6.1's line by line.
#
# Each scenario starts from reset(), prints "== NAME", then the file
# contents after each step and, for each write, the command, what the shell
# printed (busybox: "sh: write error: Invalid argument") and its exit
# status.  Every line goes out as "DIFF| line".  What differs between boots
# for no reason that matters is left out here (the contents of trace
# buffers, counts, timings: a scenario prints facts about them) or made
# the same on the host (addresses, timestamps, pids).  Multi-line files are
# printed sorted: their order follows the link layout, not the core.
T=/sys/kernel/tracing
MOD=trace_printk
K=/proc/sys/kernel

# run CMD [SHOWN]: print the command (or SHOWN in its place), what it
# printed (stderr too) and its exit status.
run() {
	echo "\$ ${2:-$1}"
	out=$(cd $T && eval "$1" 2>&1)
	rc=$?
	[ -n "$out" ] && echo "$out"
	echo "rc=$rc"
}

# show FILE...: each file's contents, sorted and indented.
show() {
	for f in "$@"; do
		echo "-- $f:"
		(cd $T && sort "$f") 2>&1 | sed 's/^/   /'
	done
}

# yesno TEXT CMD: "TEXT: yes" if CMD succeeds, else "TEXT: no".
yesno() {
	if (cd $T && eval "$2") > /dev/null 2>&1; then echo "$1: yes"; else echo "$1: no"; fi
}

# grab [INSTANCE]: the trace buffer (of the top level, or of
# instances/INSTANCE) into /tmp/trace, with recording off meanwhile: a
# reader whose own reads are traced would never reach the end.
grab() {
	d=$T/${1:+instances/$1/}
	on=$(cat "${d}tracing_on")
	echo 0 > "${d}tracing_on"
	cat "${d}trace" > /tmp/trace
	echo "$on" > "${d}tracing_on"
}

# The distinct functions in a function tracer's buffer (grab's arguments).
trace_funcs() {
	grab "$@"
	sed -n 's/^.*: \([^ ]*\) <-.*$/\1/p' /tmp/trace | sort -u
}

# Normalised enabled_functions: the line of each function in $1 (a grep
# pattern); counts of other lines would follow the boot, not the core.
enabled() {
	echo "-- enabled_functions matching '$1':"
	grep -E "$1" $T/enabled_functions | sort | sed 's/^/   /'
}

# Some reads through vfs_read (busybox cat uses sendfile on arm64).
work() {
	read -r _ < /proc/version
	read -r _ < /proc/version
}

module_loaded() { grep -q "^$MOD " /proc/modules; }

# remove_probes FILE: remove every function command FILE lists, whatever
# form of "!" its kind takes (with a count, without one).
# A probe left on a function that has gone (a module's) is listed by
# address, which no word names: "!*:cmd" removes every function's.
remove_probes() {
	grep -v '^#' "$1" | grep ':' | grep -v ':mod:' | while read -r line; do
		base=${line%:*}
		for w in "$line" "$base" "$base:0"; do echo "!$w" >> "$1"; done
		cmd=${line#*:}
		case "$cmd" in
		enable_event:*|disable_event:*) cmd=$(echo "$cmd" | cut -d: -f1-3) ;;
		*) cmd=${cmd%%:*} ;;
		esac
		for w in "*:$cmd" "*:$cmd:0"; do echo "!$w" >> "$1"; done
	done 2> /dev/null
}

# reset: the state of a fresh boot, whatever a scenario left (idempotent).
reset() {
	cd $T || return
	echo nop > current_tracer
	echo 0 > $K/stack_tracer_enabled
	echo 0 > function_profile_enabled
	for i in instances/*; do
		[ -d "$i" ] || continue
		echo nop > "$i/current_tracer"
		rmdir "$i"
	done
	for i in 1 2 3; do remove_probes set_ftrace_filter; done
	for f in set_ftrace_filter set_ftrace_notrace set_graph_function set_graph_notrace \
		stack_trace_filter set_ftrace_pid set_ftrace_notrace_pid; do
		echo > $f
	done
	echo 0 > stack_max_size
	echo 1 > $K/ftrace_enabled
	echo 0 > events/enable
	echo > kprobe_events
	echo 0 > options/function-fork
	echo 0 > options/func_stack_trace
	echo 0 > max_graph_depth
	echo 0 > snapshot
	echo 1 > tracing_on
	echo > trace
	module_loaded && rmmod $MOD
	cd /
}

# Scenarios start from reset(); what it prints would land in the previous
# scenario's output, and what it cannot undo shows in the next one's.
scenario() {
	reset > /dev/null 2>&1
	echo "== $(echo "$1" | tr _ -)"
	(cd $T && "s_$1")
}

# Addresses: a function's first byte, as /proc/kallsyms lists it.
kaddr() { grep " [tT] $1\$" /proc/kallsyms | head -n 1 | cut -d' ' -f1; }
# The index of a function: its line in available_filter_functions.
index_of() { grep -nx "$1" $T/available_filter_functions | head -n 1 | cut -d: -f1; }

# --- the files

s_files() {
	for f in available_filter_functions dyn_ftrace_total_info enabled_functions \
		set_ftrace_filter set_ftrace_notrace set_ftrace_pid set_ftrace_notrace_pid \
		set_graph_function set_graph_notrace max_graph_depth function_profile_enabled \
		trace_stat stack_trace stack_trace_filter stack_max_size; do
		yesno "$f exists" "[ -e $f ]"
	done
	yesno "$K/ftrace_enabled exists" "[ -e $K/ftrace_enabled ]"
	yesno "$K/stack_tracer_enabled exists" "[ -e $K/stack_tracer_enabled ]"
	yesno "available_filter_functions lists vfs_read" "grep -qx vfs_read available_filter_functions"
	yesno "available_filter_functions lists no module function" "! grep -q ' \\[' available_filter_functions"
	show set_ftrace_filter set_ftrace_notrace set_graph_function set_graph_notrace \
		set_ftrace_pid set_ftrace_notrace_pid stack_trace_filter enabled_functions \
		function_profile_enabled max_graph_depth
	echo "ftrace_enabled: $(cat $K/ftrace_enabled)"
}

# Files of newer kernels that ours has (6.4, 6.5), and our lines of
# dyn_ftrace_total_info.
s_files_newer() {
	yesno "touched_functions exists" "[ -e touched_functions ]"
	yesno "available_filter_functions_addrs exists" "[ -e available_filter_functions_addrs ]"
	echo "-- dyn_ftrace_total_info (digits as N):"
	sed 's/[0-9][0-9]*/N/g; s/^/   /' dyn_ftrace_total_info
}

# --- filter words

s_filter_name() {
	run "echo vfs_read > set_ftrace_filter"
	show set_ftrace_filter
	run "echo vfs_write >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo 'vfs_read vfs_write ksys_read' > set_ftrace_filter"
	show set_ftrace_filter
	run "echo vfs_read > set_ftrace_filter"
	show set_ftrace_filter
	run "echo > set_ftrace_filter"
	show set_ftrace_filter
	run ": > set_ftrace_filter"
	show set_ftrace_filter
	# One word per write(2): echo's retries stop at the failing word.
	run "echo 'vfs_read no_such_fn_xyz vfs_write' > set_ftrace_filter"
	show set_ftrace_filter
	# Words on one open apply in order; the accepted ones are published.
	run "exec 3> set_ftrace_filter; echo vfs_read >&3; echo no_such_fn_xyz >&3; echo vfs_write >&3; exec 3>&-"
	show set_ftrace_filter
	# A last word without white space after it is applied at close.
	run "echo -n ksys_read >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo -n no_such_fn_xyz >> set_ftrace_filter"
	show set_ftrace_filter
}

s_filter_glob() {
	for g in 'vfs_rea*' '*_sync_fs' '*fs_writ*' 'vfs_rea?' 'vfs_[rw][er]*' 'vfs_read[v]' \
		'vfs_[!r]ead' 'ksys_?ync'; do
		# Appended to an empty filter: a failed truncating write differs
		# on purpose (failed-writes-trunc).
		echo > set_ftrace_filter
		run "echo '$g' >> set_ftrace_filter"
		show set_ftrace_filter
	done
	run "echo 'vfs_read*' > set_graph_function"
	show set_graph_function
	run "echo 'vfs_read*' > set_ftrace_notrace"
	show set_ftrace_notrace
}

s_filter_remove() {
	run "echo 'vfs_*' > set_ftrace_filter"
	run "echo '!vfs_read' >> set_ftrace_filter"
	yesno "vfs_read listed" "grep -qx vfs_read set_ftrace_filter"
	yesno "vfs_write listed" "grep -qx vfs_write set_ftrace_filter"
	run "echo '!vfs_w*' >> set_ftrace_filter"
	yesno "vfs_write listed" "grep -qx vfs_write set_ftrace_filter"
	run "echo 'vfs_read ksys_read' > set_ftrace_filter"
	run "echo '!vfs_write' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!no_such_fn_xyz' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!*' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo 'vfs_read ksys_read' > set_ftrace_notrace"
	run "echo '!vfs_read' >> set_ftrace_notrace"
	run "echo '!vfs_write' >> set_ftrace_notrace"
	show set_ftrace_notrace
	run "echo '!*' >> set_ftrace_notrace"
	show set_ftrace_notrace
}

s_filter_index() {
	r=$(index_of vfs_read) w=$(index_of vfs_write)
	echo "index of vfs_read and vfs_write: found"
	# Indexes are shown by name: 6.1 numbers its invalid entries too.
	run "echo $r > set_ftrace_filter" "echo R > set_ftrace_filter  (R: vfs_read's line)"
	show set_ftrace_filter
	run "echo '$r $w' > set_ftrace_filter" "echo 'R W' > set_ftrace_filter  (W: vfs_write's line)"
	show set_ftrace_filter
	run "echo '!$w' >> set_ftrace_filter" "echo '!W' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo $w >> set_ftrace_notrace" "echo W >> set_ftrace_notrace"
	show set_ftrace_notrace
	run "echo 1 > set_ftrace_filter"
	n=$(head -n 1 available_filter_functions)
	yesno "1 selects the first line of available_filter_functions" "grep -qx '$n' set_ftrace_filter"
	run "echo 0x2 > set_ftrace_filter"
	n=$(sed -n 2p available_filter_functions)
	yesno "0x2 selects the second line" "grep -qx '$n' set_ftrace_filter"
	n=$(grep -c . available_filter_functions)
	run "echo $n > set_ftrace_filter" "echo N > set_ftrace_filter  (N: the last line)"
	yesno "the last index selects the last line" "grep -qx '$(tail -n 1 available_filter_functions)' set_ftrace_filter"
	run "echo vfs_read > set_ftrace_filter"
	run "echo $((n + 1)) >> set_ftrace_filter" "echo N+1 >> set_ftrace_filter"
	run "echo 0 >> set_ftrace_filter"
	run "echo 99999999 >> set_ftrace_filter"
	show set_ftrace_filter
}

# Our core refuses an index with trailing characters (6.1 takes the digits).
s_filter_index_trailing() {
	r=$(index_of vfs_read)
	run "echo vfs_write > set_ftrace_filter"
	run "echo ${r}x >> set_ftrace_filter" "echo Rx >> set_ftrace_filter  (R: vfs_read's line)"
	run "echo $r.5 >> set_ftrace_filter" "echo R.5 >> set_ftrace_filter"
	show set_ftrace_filter
}

# Indexes in the graph files: ours takes them, 6.1 refuses them.
s_graph_index() {
	r=$(index_of vfs_read)
	run "echo $r > set_graph_function" "echo R > set_graph_function  (R: vfs_read's line)"
	show set_graph_function
	run "echo $r > set_graph_notrace" "echo R > set_graph_notrace"
	show set_graph_notrace
}

# Addresses (ftrace-core.rst, "Selecting one function"): ours selects the
# function, 6.1 reads an out-of-range index.
s_filter_address() {
	a=$(kaddr vfs_read) b=$(kaddr vfs_write)
	run "echo 0x$a > set_ftrace_filter"
	show set_ftrace_filter
	run "echo 0x$b >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!0x$b' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo 0x$b > set_ftrace_notrace"
	show set_ftrace_notrace
	run "echo 0x$a > set_graph_function"
	show set_graph_function
	run "echo 0x$a > set_graph_notrace"
	show set_graph_notrace
	run "echo 0x$a > stack_trace_filter"
	show stack_trace_filter
	run "echo '0x$a:traceoff' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!0x$a:traceoff' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo 0x$a+1 >> set_ftrace_filter"
	run "echo 0x$(echo $a | sed 's/.$/1/') >> set_ftrace_filter"
	show set_ftrace_filter
}

s_notrace() {
	run "echo 'vfs_read vfs_write' > set_ftrace_filter"
	run "echo vfs_write > set_ftrace_notrace"
	show set_ftrace_filter set_ftrace_notrace
	run "echo function > current_tracer"
	enabled '^vfs_(read|write) '
	work
	echo "-- traced:"
	trace_funcs
	run "echo nop > current_tracer"
	run "echo 'vfs_*' >> set_ftrace_notrace"
	run "echo > set_ftrace_notrace"
	show set_ftrace_notrace
}

# The function tracer on a filter: only the filtered functions are traced.
s_tracer_function() {
	run "echo vfs_read > set_ftrace_filter"
	run "echo function > current_tracer"
	work
	echo "-- traced:"
	trace_funcs
	run "echo 0 > tracing_on"
	echo > trace
	work
	grab
	yesno "entries with tracing_on=0" "grep -q ' <-' /tmp/trace"
	run "echo 1 > tracing_on"
	run "echo 1 > options/func_stack_trace"
	echo > trace
	work
	grab
	yesno "a stack trace follows the entries" "grep -q '=> ' /tmp/trace"
	run "echo 0 > options/func_stack_trace"
	run "echo nop > current_tracer"
	enabled .
}

s_graph_function() {
	run "echo 'vfs_read rw_verify_area' > set_ftrace_filter"
	run "echo vfs_read > set_graph_function"
	run "echo 'ksys_re*' >> set_graph_function"
	show set_graph_function
	run "echo '!ksys_read' >> set_graph_function"
	show set_graph_function
	run "echo '!ksys_write' >> set_graph_function"
	run "echo '!no_such_fn_xyz' >> set_graph_function"
	show set_graph_function
	run "echo function_graph > current_tracer"
	work
	echo "-- graph trace functions:"
	grab
	sed -n 's/^.*| *\([a-z_0-9.]*\)() {.*$/\1/p; s/^.*| *\([a-z_0-9.]*\)();.*$/\1/p' /tmp/trace | sort -u
	run "echo nop > current_tracer"
	run "echo rw_verify_area > set_graph_notrace"
	show set_graph_notrace
	run "echo function_graph > current_tracer"
	echo > trace
	work
	grab
	yesno "rw_verify_area in the graph trace" "grep -q 'rw_verify_area' /tmp/trace"
	yesno "vfs_read in the graph trace" "grep -q 'vfs_read' /tmp/trace"
	run "echo nop > current_tracer"
	run "echo 1 > max_graph_depth"
	run "echo > set_graph_notrace"
	run "echo function_graph > current_tracer"
	run "echo nop > current_tracer"
	run "echo '!*' >> set_graph_function"
	run "echo > set_graph_function"
	show set_graph_function set_graph_notrace
}

# --- :mod:

s_mod_loaded() {
	run "modprobe trace-printk"
	echo "-- available_filter_functions of the module:"
	grep "\\[$MOD\\]" available_filter_functions | sort | sed 's/^/   /'
	mod_words set_ftrace_filter set_ftrace_notrace
}

# :mod: in the graph files, and in stack_trace_filter.
s_mod_graph() {
	run "modprobe trace-printk"
	mod_words set_graph_function set_graph_notrace
}

s_mod_stack_trace_filter() {
	run "modprobe trace-printk"
	run "echo ':mod:$MOD' > stack_trace_filter"
	show stack_trace_filter
	run "echo vfs_write > stack_trace_filter"
	run "echo 'vfs_read:mod:no_such_mod' >> stack_trace_filter"
	show stack_trace_filter
}

# mod_words FILE...: the :mod: forms in each file, the module loaded.
mod_words() {
	for f in "$@"; do
		run "echo ':mod:$MOD' > $f"
		show $f
		run "echo '*:mod:$MOD' > $f"
		show $f
		run "echo 'trace_printk_irq_work:mod:$MOD' > $f"
		show $f
		run "echo 'no_such_fn_xyz:mod:$MOD' >> $f"
		run "echo '!trace_printk_irq_work:mod:$MOD' >> $f"
		show $f
		run "echo > $f"
	done
}

s_mod_globs() {
	run "modprobe trace-printk"
	echo > set_ftrace_filter
	run "echo 'vfs_read:mod:!$MOD' >> set_ftrace_filter"
	show set_ftrace_filter
	echo > set_ftrace_filter
	run "echo 'vfs_rea*:mod:!*' >> set_ftrace_filter"
	show set_ftrace_filter
	echo > set_ftrace_filter
	run "echo 'vfs_rea*:mod:!' >> set_ftrace_filter"
	show set_ftrace_filter
	echo > set_ftrace_filter
	run "echo 'trace_printk_*:mod:' >> set_ftrace_filter"
	show set_ftrace_filter
	echo > set_ftrace_filter
	run "echo 'trace_printk_*:mod:trace_pr*' >> set_ftrace_filter"
	show set_ftrace_filter
	echo > set_ftrace_filter
	run "echo '*irq_work:mod:trace_print?' >> set_ftrace_filter"
	show set_ftrace_filter
	echo > set_ftrace_filter
	run "echo 'vfs_read:mod:$MOD' >> set_ftrace_filter"
	show set_ftrace_filter
}

# A !M module word that selects nothing.
s_mod_globs_nomatch() {
	run "modprobe trace-printk"
	run "echo 'trace_printk_irq_work:mod:!$MOD' >> set_ftrace_filter"
	show set_ftrace_filter
}

# Words for a module that is not loaded wait for it, in all four files.
s_mod_waiting() {
	for f in set_ftrace_filter set_ftrace_notrace set_graph_function set_graph_notrace; do
		run "echo '*:mod:$MOD' > $f"
		run "echo 'trace_printk_irq*:mod:$MOD' >> $f"
		show $f
	done
	run "echo 'trace_printk_irq*:mod:no_such_mod_xyz' >> set_ftrace_filter"
	run "echo '!trace_printk_irq*:mod:no_such_mod_xyz' >> set_ftrace_filter"
	show set_ftrace_filter
	run "modprobe trace-printk"
	show set_ftrace_filter set_ftrace_notrace set_graph_function set_graph_notrace
	run "rmmod $MOD"
	show set_ftrace_filter set_ftrace_notrace
	run "modprobe trace-printk"
	show set_ftrace_filter
}

# A waiting word cancelled before the module loads; one that is cleared.
s_mod_waiting_cancel() {
	run "echo 'trace_printk_irq*:mod:$MOD' > set_ftrace_filter"
	run "echo '!trace_printk_irq*:mod:$MOD' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo 'trace_printk_irq*:mod:$MOD' > set_ftrace_filter"
	run "echo > set_ftrace_filter"
	show set_ftrace_filter
	run "modprobe trace-printk"
	show set_ftrace_filter
	run "rmmod $MOD"
	run "echo 'vfs_read' > set_ftrace_filter"
	run "echo '*:mod:$MOD' >> set_ftrace_filter"
	run "echo function > current_tracer"
	enabled '.'
	run "modprobe trace-printk"
	show set_ftrace_filter
	enabled '.'
	run "echo nop > current_tracer"
}

# :mod: words without a module: ours refuses them; 6.1 keeps some waiting.
s_mod_bad_syntax() {
	for w in 'vfs_read:mod' 'vfs_read:mod:' ':mod:' ':mod'; do
		run "echo vfs_write > set_ftrace_filter"
		run "echo '$w' >> set_ftrace_filter"
		show set_ftrace_filter
	done
	r=$(index_of vfs_read)
	run "echo vfs_write > set_ftrace_filter"
	run "echo '$r:mod:$MOD' >> set_ftrace_filter" "echo 'R:mod:$MOD' >> set_ftrace_filter  (R: vfs_read's line)"
	show set_ftrace_filter
}

# --- function commands

s_cmd_traceon_traceoff() {
	run "echo 'ksys_sync:traceoff:3' > set_ftrace_filter"
	show set_ftrace_filter
	run "sync"
	show set_ftrace_filter tracing_on
	run "sync"
	show set_ftrace_filter tracing_on
	run "echo 1 > tracing_on"
	run "sync"
	show set_ftrace_filter tracing_on
	run "echo '!ksys_sync:traceoff:0' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo 'ksys_sync:traceoff' >> set_ftrace_filter"
	run "echo 1 > tracing_on"
	run "sync"
	show set_ftrace_filter tracing_on
	run "echo '!ksys_sync:traceoff' >> set_ftrace_filter"
	run "echo 0 > tracing_on"
	run "echo 'ksys_sync:traceon:2' >> set_ftrace_filter"
	run "sync"
	show set_ftrace_filter tracing_on
	run "echo 'ksys_sync:traceon' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!ksys_sync:traceon' >> set_ftrace_filter"
	run "echo '!ksys_sync:traceon:5' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo 'ksys_s*:traceoff' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!ksys_s*:traceoff' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo 'vfs_read' >> set_ftrace_filter"
	run "echo 'ksys_sync:traceoff' >> set_ftrace_filter"
	run "echo > set_ftrace_filter"
	echo "(echo > set_ftrace_filter)"
	show set_ftrace_filter
}

s_cmd_snapshot() {
	run "echo 'ksys_sync:snapshot:1' > set_ftrace_filter"
	show set_ftrace_filter
	run "sync"
	show set_ftrace_filter
	yesno "snapshot holds a buffer" "! grep -q 'Snapshot is freed' snapshot"
	run "echo 'ksys_sync:snapshot' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!ksys_sync:snapshot' >> set_ftrace_filter"
	run "echo '!ksys_sync:snapshot:0' >> set_ftrace_filter"
	show set_ftrace_filter
}

s_cmd_stacktrace() {
	run "echo 'ksys_sync:stacktrace:2' > set_ftrace_filter"
	show set_ftrace_filter
	run "sync"
	show set_ftrace_filter
	grab
	yesno "a stack trace in the buffer" "grep -q '=> ' /tmp/trace"
	yesno "it names ksys_sync" "grep -q 'ksys_sync' /tmp/trace"
	run "echo 'ksys_sync:stacktrace' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!ksys_sync:stacktrace:0' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!ksys_sync:stacktrace' >> set_ftrace_filter"
	show set_ftrace_filter
}

s_cmd_event() {
	run "echo 'ksys_sync:enable_event:sched:sched_switch:1' > set_ftrace_filter"
	show set_ftrace_filter events/sched/sched_switch/enable
	run "sync"
	show set_ftrace_filter events/sched/sched_switch/enable
	run "echo 'ksys_sync:disable_event:sched:sched_switch' >> set_ftrace_filter"
	show set_ftrace_filter events/sched/sched_switch/enable
	run "sync"
	show events/sched/sched_switch/enable
	run "echo 'ksys_sync:enable_event:sched:sched_switch' >> set_ftrace_filter"
	run "echo 'ksys_sync:enable_event:no_such_sys:no_such_event' >> set_ftrace_filter"
	run "echo 'ksys_sync:enable_event:sched' >> set_ftrace_filter"
	run "echo 'ksys_sync:enable_event:sched:sched_switch:abc' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!ksys_sync:enable_event:sched:sched_switch:0' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!ksys_sync:enable_event:sched:sched_switch' >> set_ftrace_filter"
	run "echo '!ksys_sync:disable_event:sched:sched_switch' >> set_ftrace_filter"
	show set_ftrace_filter events/sched/sched_switch/enable
}

# A probe on a module function, across the module's unload and reload.
s_cmd_module() {
	run "modprobe trace-printk"
	run "echo 'trace_printk_irq_work:traceoff' > set_ftrace_filter"
	run "echo 'trace_printk_irq_work:mod:$MOD' >> set_ftrace_filter"
	show set_ftrace_filter
	run "rmmod $MOD"
	echo "-- set_ftrace_filter without the module (addresses as ADDR):"
	sed 's/^[0-9a-f]\{16\}/ADDR/' set_ftrace_filter | sort | sed 's/^/   /'
	run "echo '!trace_printk_irq_work:traceoff' >> set_ftrace_filter"
	run "modprobe trace-printk"
	show set_ftrace_filter
}

# A module's functions traced while it initialises: the init function's
# name survives the freeing of its text.
s_mod_init_names() {
	# ksys_sync is not called: with an empty filter 6.1 would trace all.
	run "echo ksys_sync > set_ftrace_filter"
	run "echo '*:mod:$MOD' >> set_ftrace_filter"
	run "echo function > current_tracer"
	run "modprobe trace-printk"
	run "echo nop > current_tracer"
	echo "-- traced:"
	trace_funcs
	show set_ftrace_filter
}

# dump and cpudump are written and removed, never hit: they print the ring
# buffer on the console.
s_cmd_dump() {
	run "echo 'ksys_sync:dump' > set_ftrace_filter"
	run "echo 'ksys_sync:cpudump' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!ksys_sync:dump' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!ksys_sync:cpudump' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo 'ksys_sync:dump:2' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!ksys_sync:dump:2' >> set_ftrace_filter"
	show set_ftrace_filter
}

s_cmd_remove() {
	run "echo 'ksys_sync:stacktrace:2' > set_ftrace_filter"
	run "echo '!ksys_sync:stacktrace' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!ksys_sync:traceoff' >> set_ftrace_filter"
	run "echo '!ksys_sync:traceoff:1' >> set_ftrace_filter"
	run "echo '!vfs_read:stacktrace:1' >> set_ftrace_filter"
	run "echo '!no_such_fn_xyz:stacktrace:1' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!ksys_sync:stacktrace:7' >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo '!ksys_sync:stacktrace:1' >> set_ftrace_filter"
	run "echo '!ksys_sync:nosuchcmd' >> set_ftrace_filter"
	show set_ftrace_filter
}

# Commands in the files that take none.
s_cmd_other_files() {
	run "echo 'ksys_sync:traceoff' > set_ftrace_notrace"
	run "echo 'ksys_sync:traceoff' > set_graph_function"
	show set_ftrace_notrace set_graph_function
}

s_cmd_stack_trace_filter() {
	run "echo 'ksys_sync:traceoff' > stack_trace_filter"
	run "echo '!ksys_sync:traceoff' >> stack_trace_filter"
	show stack_trace_filter
}

# --- PIDs

s_pid() {
	show set_ftrace_pid
	run "echo 1 > set_ftrace_pid"
	show set_ftrace_pid
	run "echo 2 >> set_ftrace_pid"
	show set_ftrace_pid
	run "echo '1 2 3' > set_ftrace_pid"
	show set_ftrace_pid
	run "echo abc >> set_ftrace_pid"
	run "echo -1 >> set_ftrace_pid"
	run "echo 2000000000 >> set_ftrace_pid"
	show set_ftrace_pid
	run "echo 5 > set_ftrace_pid"
	show set_ftrace_pid
	# Only the listed task is traced.
	run "echo vfs_read > set_ftrace_filter"
	run "echo function > current_tracer"
	echo > trace
	sh -c "echo \$\$ > $T/set_ftrace_pid; echo \$\$ > /tmp/pid; read -r _ < /proc/version"
	pid=$(cat /tmp/pid)
	work
	grab
	yesno "entries of the listed task" "grep ' vfs_read <-' /tmp/trace | grep -q -e '-$pid '"
	yesno "entries of other tasks" "grep ' vfs_read <-' /tmp/trace | grep -v -q -e '-$pid '"
	echo "-- set_ftrace_pid (the task's pid as PID):"
	sed "s/^$pid\$/PID/" set_ftrace_pid
	run "echo nop > current_tracer"
}

s_pid_clear() {
	run "echo '1 2' > set_ftrace_pid"
	run "echo > set_ftrace_pid"
	show set_ftrace_pid
	run "echo '1 2' > set_ftrace_pid"
	run "echo >> set_ftrace_pid"
	show set_ftrace_pid
	run "echo '1 2' > set_ftrace_pid"
	run ": > set_ftrace_pid"
	show set_ftrace_pid
	run "echo '1 2' > set_ftrace_notrace_pid"
	run "echo > set_ftrace_notrace_pid"
	show set_ftrace_notrace_pid
	run "echo '1 2' > set_ftrace_notrace_pid"
	run "echo >> set_ftrace_notrace_pid"
	show set_ftrace_notrace_pid
}

s_notrace_pid() {
	show set_ftrace_notrace_pid
	run "echo 1 > set_ftrace_notrace_pid"
	run "echo 2 >> set_ftrace_notrace_pid"
	show set_ftrace_notrace_pid
	run "echo abc >> set_ftrace_notrace_pid"
	show set_ftrace_notrace_pid
	run "echo vfs_read > set_ftrace_filter"
	run "echo function > current_tracer"
	echo > trace
	sh -c "echo \$\$ > $T/set_ftrace_notrace_pid; echo \$\$ > /tmp/pid; read -r _ < /proc/version"
	pid=$(cat /tmp/pid)
	work
	grab
	yesno "entries of the listed task" "grep ' vfs_read <-' /tmp/trace | grep -q -e '-$pid '"
	yesno "entries of other tasks" "grep ' vfs_read <-' /tmp/trace | grep -v -q -e '-$pid '"
	run "echo nop > current_tracer"
}

# options/function-fork: a listed task's children are listed while they live.
s_pid_fork() {
	for opt in 0 1; do
		run "echo $opt > options/function-fork"
		sh -c "echo \$\$ > $T/set_ftrace_pid; sh -c 'grep -c . $T/set_ftrace_pid > /tmp/n; :'"
		echo "function-fork=$opt: the child saw $(cat /tmp/n) line(s)"
		echo > set_ftrace_pid
	done
}

# --- instances

s_instances() {
	run "mkdir instances/diff"
	I=instances/diff
	yesno "$I/set_ftrace_filter exists" "[ -e $I/set_ftrace_filter ]"
	yesno "$I/set_ftrace_notrace exists" "[ -e $I/set_ftrace_notrace ]"
	yesno "$I/set_ftrace_pid exists" "[ -e $I/set_ftrace_pid ]"
	yesno "$I/set_ftrace_notrace_pid exists" "[ -e $I/set_ftrace_notrace_pid ]"
	yesno "$I/set_graph_function exists" "[ -e $I/set_graph_function ]"
	yesno "$I/function_profile_enabled exists" "[ -e $I/function_profile_enabled ]"
	show $I/set_ftrace_filter $I/set_ftrace_notrace
	run "echo 'vfs_read vfs_write' > $I/set_ftrace_filter"
	run "echo vfs_write > $I/set_ftrace_notrace"
	run "echo no_such_fn_xyz >> $I/set_ftrace_filter"
	show $I/set_ftrace_filter $I/set_ftrace_notrace set_ftrace_filter set_ftrace_notrace
	run "echo function > $I/current_tracer"
	work
	echo "-- traced in the instance:"
	trace_funcs diff
	grab
	yesno "top-level trace has entries" "grep -q ' <-' /tmp/trace"
	enabled '^vfs_(read|write) '
	run "echo vfs_read > set_ftrace_filter"
	run "echo function > current_tracer"
	enabled '^vfs_(read|write) '
	run "echo nop > current_tracer"
	run "echo 'ksys_sync:traceoff' >> $I/set_ftrace_filter"
	show $I/set_ftrace_filter set_ftrace_filter
	run "sync"
	show $I/tracing_on tracing_on
	run "echo '!ksys_sync:traceoff' >> $I/set_ftrace_filter"
	# (No tracer: a filter of waiting words alone traces every function.)
	run "echo nop > $I/current_tracer"
	run "echo '*:mod:$MOD' > $I/set_ftrace_filter"
	show $I/set_ftrace_filter
	run "modprobe trace-printk"
	show $I/set_ftrace_filter
	run "rmdir $I"
	yesno "$I exists" "[ -e $I ]"
}

# --- the profiler, the stack tracer, ftrace_enabled

s_profiler() {
	run "echo 'vfs_read vfs_write' > set_ftrace_filter"
	run "echo 1 > function_profile_enabled"
	work
	run "echo 0 > function_profile_enabled"
	show function_profile_enabled
	echo "-- trace_stat/function0 header (spaces squeezed):"
	head -n 2 trace_stat/function0 | tr -s ' \t' ' ' | sed 's/^/   /'
	echo "-- functions listed (all CPUs):"
	for f in trace_stat/function*; do tail -n +3 $f; done | awk '{print $1}' | sort -u | sed 's/^/   /'
	run "echo 2 > function_profile_enabled"
	run "echo abc > function_profile_enabled"
	show function_profile_enabled
}

s_stack_tracer() {
	run "echo vfs_read > stack_trace_filter"
	run "echo 'vfs_wri*' >> stack_trace_filter"
	show stack_trace_filter
	run "echo '!vfs_write' >> stack_trace_filter"
	show stack_trace_filter
	run "echo no_such_fn_xyz >> stack_trace_filter"
	show stack_trace_filter
	run "echo 1 > $K/stack_tracer_enabled"
	work
	run "echo 0 > $K/stack_tracer_enabled"
	yesno "stack_max_size nonzero" "[ \$(cat stack_max_size) -gt 0 ]"
	echo "-- stack_trace header (digits as N):"
	head -n 2 stack_trace | sed 's/[0-9][0-9]*/N/g; s/^/   /'
	run "echo 0 > stack_max_size"
	show stack_max_size
	run "echo > stack_trace_filter"
	show stack_trace_filter
}

s_ftrace_enabled() {
	echo "ftrace_enabled: $(cat $K/ftrace_enabled)"
	run "echo vfs_read > set_ftrace_filter"
	run "echo function > current_tracer"
	run "echo 0 > $K/ftrace_enabled"
	echo "ftrace_enabled: $(cat $K/ftrace_enabled)"
	echo > trace
	work
	grab
	yesno "entries with ftrace_enabled=0" "grep -q ' <-' /tmp/trace"
	enabled '.'
	show current_tracer
	run "echo vfs_write >> set_ftrace_filter"
	show set_ftrace_filter
	run "echo nop > current_tracer"
	run "echo function > current_tracer"
	show current_tracer
	run "echo 1 > $K/ftrace_enabled"
	echo "ftrace_enabled: $(cat $K/ftrace_enabled)"
	echo > trace
	work
	echo "-- traced:"
	trace_funcs
	enabled '.'
	run "echo nop > current_tracer"
	run "echo 0 > $K/ftrace_enabled"
	run "echo 1 > function_profile_enabled"
	run "echo 0 > function_profile_enabled"
	run "echo 1 > $K/ftrace_enabled"
}

# Values other than 0 and 1.
s_ftrace_enabled_values() {
	run "echo abc > $K/ftrace_enabled"
	echo "ftrace_enabled: $(cat $K/ftrace_enabled)"
	run "echo 2 > $K/ftrace_enabled"
	echo "ftrace_enabled: $(cat $K/ftrace_enabled)"
	run "echo -1 > $K/ftrace_enabled"
	echo "ftrace_enabled: $(cat $K/ftrace_enabled)"
}

# --- kprobes on ftrace, enabled_functions

s_kprobe() {
	run "echo 'p:diffprobe vfs_read' > kprobe_events"
	show kprobe_events
	enabled '^vfs_read '
	run "echo 1 > events/kprobes/diffprobe/enable"
	enabled '^vfs_read '
	work
	grab
	yesno "the probe hit" "grep -q 'diffprobe:' /tmp/trace"
	run "echo vfs_read > set_ftrace_filter"
	run "echo function > current_tracer"
	enabled '^vfs_read '
	run "echo nop > current_tracer"
	run "echo 0 > events/kprobes/diffprobe/enable"
	enabled '^vfs_read '
	run "echo '-:diffprobe' >> kprobe_events"
	show kprobe_events
}

s_enabled_functions() {
	show enabled_functions
	run "echo 'vfs_read vfs_write' > set_ftrace_filter"
	run "echo function > current_tracer"
	enabled .
	run "echo 1 > options/func_stack_trace"
	enabled .
	run "echo 0 > options/func_stack_trace"
	run "mkdir instances/diff"
	run "echo vfs_read > instances/diff/set_ftrace_filter"
	run "echo function > instances/diff/current_tracer"
	enabled .
	run "echo nop > instances/diff/current_tracer"
	run "echo nop > current_tracer"
	run "echo function_graph > current_tracer"
	enabled .
	run "echo nop > current_tracer"
	show enabled_functions
}

# A function probe's line: the ops' callback is the core's own.
s_enabled_functions_probe() {
	run "echo 'ksys_sync:traceoff' >> set_ftrace_filter"
	enabled .
}

# --- failed writes: each fails as 6.1's and leaves the file as it was.

# bad FILE WORD...: for each word, "echo WORD >> FILE" and whether FILE
# changed.
bad() {
	f=$1
	shift
	for w in "$@"; do
		before=$(sort $f)
		# A long word is shown by its start and length.
		if [ ${#w} -gt 100 ]; then
			run "echo '$w' >> $f" "echo '$(echo "$w" | cut -c1-12)...' >> $f  (${#w} bytes)"
		else
			run "echo '$w' >> $f"
		fi
		if [ "$(sort $f)" = "$before" ]; then echo "$f unchanged"; else show $f; fi
	done
}

s_failed_writes() {
	l669=$(printf 'vfs_read%0661d' 0 | tr 0 '*')
	l670=$(printf 'vfs_read%0662d' 0 | tr 0 '*')
	l1000=$(printf 'vfs_read%0992d' 0 | tr 0 '*')
	for f in set_ftrace_filter set_ftrace_notrace set_graph_function set_graph_notrace \
		stack_trace_filter; do
		run "echo vfs_write > $f"
		bad $f no_such_fn_xyz 'no_such_*_xyz' 'vfs_re[ad' 'vfs_rea[!d]' '*no_such_xyz*' \
			'vfs_read:nosuchcmd' 'vfs read' '!no_such_fn_xyz' "$l670" "$l1000"
		# (stack_trace_filter's :mod: words: mod-stack-trace-filter)
		[ $f = stack_trace_filter ] || bad $f 'vfs_read:mod:no_such_mod:x' 
		run "echo '$l669' >> $f" "echo '$(echo "$l669" | cut -c1-12)...' >> $f  (669 bytes)"
		show $f
		run "echo > $f"
	done
}

s_failed_commands() {
	run "echo vfs_write > set_ftrace_filter"
	bad set_ftrace_filter 'vfs_read:traceoff:abc' 'vfs_read:traceoff:1:2' 'no_such_fn_xyz:traceoff' \
		'vfs_read:snapshot:x' 'vfs_read:stacktrace:-1' 'vfs_read:enable_event' \
		'vfs_read:enable_event:sched:no_such_event' 'vfs_read:dump:1' ':traceoff' \
		'vfs_read:' 'vfs_read::'
}

# A failed truncating write: ours keeps the file, 6.1 empties it
# (ftrace-core.rst, "Filters and names").
s_failed_writes_trunc() {
	for f in set_ftrace_filter set_ftrace_notrace stack_trace_filter; do
		run "echo vfs_write > $f"
		run "echo no_such_fn_xyz > $f"
		show $f
	done
	run "echo '*:mod:$MOD' > set_ftrace_filter"
	run "echo no_such_fn_xyz > set_ftrace_filter"
	show set_ftrace_filter
}

# The scenarios, in order.  The console takes only emergencies meanwhile:
# kernel messages would split the lines.
SCENARIOS="files files_newer filter_name filter_glob filter_remove filter_index
filter_index_trailing graph_index filter_address notrace tracer_function
graph_function mod_loaded mod_graph mod_stack_trace_filter mod_globs
mod_globs_nomatch mod_waiting mod_waiting_cancel mod_init_names
mod_bad_syntax cmd_traceon_traceoff cmd_snapshot cmd_stacktrace
cmd_event cmd_module cmd_dump cmd_remove cmd_other_files
cmd_stack_trace_filter pid pid_clear notrace_pid pid_fork instances
profiler stack_tracer ftrace_enabled ftrace_enabled_values kprobe
enabled_functions enabled_functions_probe failed_writes failed_commands
failed_writes_trunc"

# diff_only=a,b on the kernel command line (APPEND=) runs those scenarios
# only; diff_watch=SECONDS (default 420) is how long the battery may run
# before the guest shows what its tasks and CPUs are doing (a hang).
only='' watch=420
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	diff_only=*) only=$(echo "${arg#diff_only=}" | tr ,- ' _') ;;
	diff_watch=*) watch=${arg#diff_watch=} ;;
	esac
done
[ -n "$only" ] && SCENARIOS=$only

main() {
	[ -d $T/instances ] || { echo "no tracefs at $T"; return 1; }
	for s in $SCENARIOS; do
		scenario $s
	done
	reset > /dev/null 2>&1
	return 0
}

level=$(cut -f1 /proc/sys/kernel/printk)
echo 1 > /proc/sys/kernel/printk
start=$(cut -d' ' -f1 /proc/uptime)
(
	sleep "$watch"
	echo "diff: still running after $watch s: tasks, their kernel stacks, CPUs"
	for p in /proc/[0-9]*; do
		echo "diff: $(cat $p/comm 2> /dev/null) ${p#/proc/}: $(tr '\n' ' ' < $p/stack 2> /dev/null)"
	done
	echo l > /proc/sysrq-trigger
) &
watcher=$!
{ main; echo $? > /tmp/diff-rc; } 2>&1 | sed 's/^/DIFF| /'
kill $watcher 2> /dev/null
end=$(cut -d' ' -f1 /proc/uptime)
echo "$level" > /proc/sys/kernel/printk
echo "diff: battery ran from $start to $end s of uptime"
exit "$(cat /tmp/diff-rc)"
