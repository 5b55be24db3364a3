#!/bin/sh
# A short check of dynamic ftrace for an arch that make check only boots
# (harness/smoke.sh): the call sites were recorded, the function tracer
# traces.  Each finding is one "SMOKE| name value" line for the host.
T=/sys/kernel/tracing
say() { echo "SMOKE| $*"; }

say functions "$(wc -l < $T/available_filter_functions)"
say total_info "$(head -n 1 $T/dyn_ftrace_total_info | cut -d' ' -f1)"
say invalid "$(grep -c '__ftrace_invalid_address__' $T/available_filter_functions)"

echo function > $T/current_tracer
echo 1 > $T/tracing_on
cat /proc/version > /dev/null; ls / > /dev/null
echo 0 > $T/tracing_on
say trace_lines "$(grep -vc '^#' $T/trace)"
say enabled "$(wc -l < $T/enabled_functions)"
grep -v '^#' $T/trace | head -n 3 | sed 's/^/SMOKE| sample /'

# A filter on one function: only it may appear in the trace.
echo nop > $T/current_tracer
echo > $T/trace
echo vfs_read > $T/set_ftrace_filter
echo function > $T/current_tracer
echo 1 > $T/tracing_on
# The shell's read builtin calls read(2) (busybox cat would use sendfile).
while read -r line; do :; done < /proc/version
echo 0 > $T/tracing_on
say filtered_lines "$(grep -v '^#' $T/trace | grep -c 'vfs_read <-')"
say filtered_other "$(grep -v '^#' $T/trace | grep -vc 'vfs_read <-')"
say filter_enabled "$(wc -l < $T/enabled_functions)"
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
say after_off "$(wc -l < $T/enabled_functions)"
