#!/bin/sh
# The function tracer of a kernel without dynamic ftrace (VARIANT=nodyn),
# checked after boot (guest mode harness=nodyncheck).  Every traced function
# calls the arch's handler, which calls ftrace_trace_function: these checks
# show that the ops list behind it is switched on and off, honours the PID
# filter, ftrace_enabled and the profiler, traces modules that come and go,
# and that the files of dynamic ftrace are absent, as they are upstream.
# The checks are the KTAP document "nodyncheck" (harness/guest/ktap.sh).
T=/sys/kernel/tracing
. /harness/ktap.sh

pass() { ktap_ok "$1"; }
failed() { ktap_fail "$1" "$2"; }
# expect NAME COND WHY: one check from a shell condition.
expect() { if eval "$2"; then pass "$1"; else failed "$1" "$3"; fi; }

# Some kernel work to trace: open and read a proc file a few times.
work() { for i in 1 2 3 4 5 6 7 8 9 10; do read -r x < /proc/version; done; }
# Function entries in the trace buffer (lines with "<-").
entries() { grep -c -e '<-' $T/trace; }
# traced_work: clear the buffer, do the work, count what was traced.
traced_work() { echo > $T/trace; work; entries; }

level=$(cut -f1 /proc/sys/kernel/printk)
echo 1 > /proc/sys/kernel/printk
ktap_start nodyncheck

expect tracer_listed "grep -qw function $T/available_tracers" \
	"'function' not in available_tracers: $(cat $T/available_tracers)"
for f in available_filter_functions enabled_functions set_ftrace_filter; do
	expect "no_$f" "[ ! -e $T/$f ]" "$f exists without dynamic ftrace"
done
expect no_ops_at_boot "[ \"\$(cat $T/current_tracer)\" = nop ]" \
	"current_tracer is $(cat $T/current_tracer)"
n=$(traced_work)
expect nothing_traced_at_boot "[ $n = 0 ]" "$n entries with current_tracer=nop"

echo function > $T/current_tracer
n=$(traced_work)
expect function_traces "[ $n -gt 20 ]" "$n function entries after reading /proc/version"
# This shell's own reads: with every task traced, a slow host lets timer
# interrupts overwrite them in the ring buffer.  The buffer stops before the
# PID filter is cleared: once every task is traced again, the fork and exec
# of grep alone can fill it over the reads.
echo $$ > $T/set_ftrace_pid
echo > $T/trace
work
echo 0 > $T/tracing_on
echo > $T/set_ftrace_pid
expect traces_vfs_read "grep -q ' vfs_read <-' $T/trace" \
	"no vfs_read entry: $(grep -c -e '<-' $T/trace) entries, last: $(grep -e '<-' $T/trace | tail -n 1)"
echo 1 > $T/tracing_on

# PID filter: only the background reader is traced.
(while :; do read -r x < /proc/version; done) &
bg=$!
echo $bg > $T/set_ftrace_pid
echo > $T/trace
sleep 1
others=$(grep -e '<-' $T/trace | grep -v -e "-$bg " -c)
mine=$(grep -e '<-' $T/trace | grep -e "-$bg " -c)
expect pid_filter_traces "[ $mine -gt 20 ]" "$mine entries of pid $bg"
expect pid_filter_only "[ $others = 0 ]" "$others entries of other tasks: $(grep -e '<-' $T/trace | grep -v -e "-$bg " | head -n 2)"
echo > $T/set_ftrace_pid
# set_ftrace_notrace_pid: the same reader is left out, others are not.
echo $bg > $T/set_ftrace_notrace_pid
echo > $T/trace
sleep 1
# Every other task is traced now: stop the buffer before reading it.
echo 0 > $T/tracing_on
mine=$(grep -e '<-' $T/trace | grep -e "-$bg " -c)
others=$(grep -e '<-' $T/trace | grep -v -e "-$bg " -c)
expect notrace_pid_skips "[ $mine = 0 ]" "$mine entries of pid $bg"
expect notrace_pid_others "[ $others -gt 20 ]" "$others entries of other tasks"
echo > $T/set_ftrace_notrace_pid
kill $bg; wait $bg 2>/dev/null
echo 1 > $T/tracing_on

# Three ops at once (the list function calls each): the top-level tracer,
# an instance's tracer (an allocated ops) and the profiler.
if mkdir $T/instances/nodyn; then
	I=$T/instances/nodyn
	echo function > $I/current_tracer
	echo 1 > $T/function_profile_enabled
	echo > $T/trace; echo > $I/trace
	work
	n=$(entries); ni=$(grep -c -e '<-' $I/trace)
	expect three_ops_top "[ $n -gt 20 ]" "$n top-level entries"
	expect three_ops_instance "[ $ni -gt 20 ]" "$ni instance entries"
	echo 0 > $T/function_profile_enabled
	echo nop > $I/current_tracer
	echo > $I/trace
	work
	ni=$(grep -c -e '<-' $I/trace)
	expect instance_off "[ $ni = 0 ]" "$ni instance entries after nop"
	expect instance_rmdir "rmdir $I" "rmdir failed"
else
	failed three_ops_top "mkdir instances/nodyn failed"
fi

# ftrace_enabled=0 stops the calls, 1 brings them back.  (6.1 itself fails
# ftrace_enabled_off here: without dynamic ftrace its sysctl compares with a
# "last value" that boot left at 0, so the first write of 0 does nothing.)
echo 0 > /proc/sys/kernel/ftrace_enabled
n=$(traced_work)
expect ftrace_enabled_off "[ $n = 0 ]" "$n entries with ftrace_enabled=0"
echo 1 > /proc/sys/kernel/ftrace_enabled
n=$(traced_work)
expect ftrace_enabled_on "[ $n -gt 20 ]" "$n entries after ftrace_enabled=1"

# Modules come and go while every function is traced: the module's own
# functions show up in the trace (trace-events-sample's kthread,
# "event-sample", calls do_simple_thread_func every second; only its PID is
# traced, or the rest of the system overwrites its entries in the ring
# buffer), and loading and unloading under the tracer is safe.
if modprobe trace-events-sample 2>/dev/null; then
	kt=$(grep -l '^event-sample$' /proc/[0-9]*/comm 2>/dev/null | head -n 1 | cut -d/ -f3)
	echo "$kt" > $T/set_ftrace_pid
	echo > $T/trace
	sleep 3
	echo > $T/set_ftrace_pid
	n=$(grep -c ' do_simple_thread_func[.a-z0-9]* <-' $T/trace)
	expect module_traced "[ $n -gt 0 ]" "no do_simple_thread_func entry of pid '$kt' in 3 s"
	rmmod trace_events_sample
	i=0 ok=0
	while [ $i -lt 20 ]; do
		modprobe trace-events-sample && rmmod trace_events_sample && ok=$((ok + 1))
		i=$((i + 1))
	done
	expect module_cycles "[ $ok = 20 ]" "$ok of 20 load/unload cycles"
	n=$(traced_work)
	expect traces_after_modules "[ $n -gt 20 ]" "$n entries after the module cycles"
else
	failed module_traced "modprobe trace-events-sample failed"
fi

echo nop > $T/current_tracer
n=$(traced_work)
expect tracer_off "[ $n = 0 ]" "$n entries after current_tracer=nop"

# The function profiler counts calls through the same list.
if [ -e $T/function_profile_enabled ]; then
	echo 1 > $T/function_profile_enabled
	work
	echo 0 > $T/function_profile_enabled
	hits=$(cat $T/trace_stat/function* | awk '$1 == "vfs_read" { n += $2 } END { print n + 0 }')
	expect profiler_counts "[ $hits -ge 10 ]" "vfs_read counted $hits times"
else
	failed profiler_counts "no function_profile_enabled"
fi

echo "$level" > /proc/sys/kernel/printk
ktap_end
rc=$?
# The kernel log: the console took only emergencies while the checks ran.
dmesg | sed 's/^/DMESG| /'
exit $rc
