#!/bin/sh
# A short check of dynamic ftrace for an arch that make check only boots
# (harness/smoke.sh): the call sites were recorded, the function tracer
# traces.  The checks are the KTAP document "smoke" (harness/guest/ktap.sh).
T=/sys/kernel/tracing
. /harness/ktap.sh
# Kernel messages would split the result lines.
level=$(cut -f1 /proc/sys/kernel/printk)
echo 1 > /proc/sys/kernel/printk
ktap_start smoke 4

n=$(wc -l < $T/available_filter_functions)
inv=$(grep -c '__ftrace_invalid_address__' $T/available_filter_functions)
ktap_diag "dyn_ftrace_total_info: $(head -n 1 $T/dyn_ftrace_total_info | cut -d' ' -f1)"
if [ "$n" -gt 0 ] && [ "$inv" = 0 ]; then
	ktap_ok available_filter_functions "$n functions, none invalid"
else
	ktap_fail available_filter_functions "$n functions, $inv invalid"
fi

echo function > $T/current_tracer
echo 1 > $T/tracing_on
cat /proc/version > /dev/null; ls / > /dev/null
echo 0 > $T/tracing_on
lines=$(grep -vc '^#' $T/trace)
ktap_diag "$(grep -v '^#' $T/trace | head -n 3)"
ktap_diag "enabled_functions: $(wc -l < $T/enabled_functions) lines"
if [ "$lines" -gt 0 ]; then
	ktap_ok function_tracer "$lines trace lines"
else
	ktap_fail function_tracer "no trace lines"
fi

# A filter on one function: only it may appear in the trace.
echo nop > $T/current_tracer
echo > $T/trace
echo vfs_read > $T/set_ftrace_filter
echo function > $T/current_tracer
echo 1 > $T/tracing_on
# The shell's read builtin calls read(2) (busybox cat would use sendfile).
while read -r line; do :; done < /proc/version
echo 0 > $T/tracing_on
fl=$(grep -v '^#' $T/trace | grep -c 'vfs_read <-')
fo=$(grep -v '^#' $T/trace | grep -vc 'vfs_read <-')
fe=$(wc -l < $T/enabled_functions)
if [ "$fl" -gt 0 ] && [ "$fo" = 0 ] && [ "$fe" = 1 ]; then
	ktap_ok filter_vfs_read "$fl lines, no other function, 1 site enabled"
else
	ktap_fail filter_vfs_read "$fl lines, $fo others, $fe sites enabled"
fi
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
off=$(wc -l < $T/enabled_functions)
if [ "$off" = 0 ]; then
	ktap_ok tracer_off "no site enabled"
else
	ktap_fail tracer_off "$off sites still enabled"
fi
echo "$level" > /proc/sys/kernel/printk
ktap_end
rc=$?
# The kernel log: the console took only emergencies while the checks ran.
dmesg | sed 's/^/DMESG| /'
exit $rc
