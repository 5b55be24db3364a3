#!/bin/sh
# Dynamic ftrace end to end, as a kernel developer would drive it by hand.
T=/sys/kernel/tracing
set -e
step() { echo; echo "### $*"; }

step "$(wc -l < $T/available_filter_functions) traceable functions; the first few:"
head -n 5 $T/available_filter_functions
cat $T/dyn_ftrace_total_info

step "echo 'vfs_read vfs_write *_openat' > set_ftrace_filter"
echo 'vfs_read vfs_write' > $T/set_ftrace_filter
echo '*_openat' >> $T/set_ftrace_filter
cat $T/set_ftrace_filter

step "function tracer on; run some commands"
echo function > $T/current_tracer
echo 1 > $T/tracing_on
cat /proc/version > /dev/null; ls / > /dev/null
echo 0 > $T/tracing_on
grep -v '^#' $T/trace | head -n 8
echo "($(grep -vc '^#' $T/trace) trace lines)"

step "enabled_functions"
cat $T/enabled_functions

step "function_graph on vfs_read"
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
echo > $T/trace
echo vfs_read > $T/set_graph_function
echo 2 > $T/max_graph_depth
echo function_graph > $T/current_tracer
echo 1 > $T/tracing_on
for i in 1 2 3; do cat /proc/version > /dev/null; done
echo 0 > $T/tracing_on
grep -v '^#' $T/trace | head -n 12

step "a module traced from the moment it loads: '*:mod:trace_printk'"
echo nop > $T/current_tracer
echo > $T/trace
echo '*:mod:trace_printk' > $T/set_ftrace_filter
echo "set_ftrace_filter: $(cat $T/set_ftrace_filter)"
echo function > $T/current_tracer
echo 1 > $T/tracing_on
modprobe trace-printk
echo 0 > $T/tracing_on
echo "enabled_functions: $(grep -c '\[trace_printk\]' $T/enabled_functions) functions of the module"
grep -v '^#' $T/trace | grep trace_printk | head -n 4
rmmod trace_printk
echo "after rmmod: $(wc -l < $T/enabled_functions) enabled functions"
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter

step "everything off again"
echo nop > $T/current_tracer
echo > $T/set_graph_function
echo 0 > $T/max_graph_depth
echo > $T/trace
echo 1 > $T/tracing_on
echo "current_tracer: $(cat $T/current_tracer)"
echo "enabled_functions: $(wc -l < $T/enabled_functions) lines"
