#!/bin/sh
# The guest's stress mode (make stress, harness/stress.sh): the core under
# load, with tracers, filters, instances and modules churning at once, then
# malformed writes to every writable file the core owns.
#
# Kernel parameters: stress=short|full|debug (the sizes below; debug is
# for the KASAN and lockdep kernels of make debug), stress_seed=N,
# stress_jobs=JOB,JOB... to run only those jobs of phase 1 (tracers,
# instances, modules, writers, fuzz; default all; phase 2 runs with fuzz).
# Phase 1, while every vCPU runs a busy load, these jobs run together:
#   tracers    function / function_graph on and off with filter churn
#              (globs, "!", ":mod:", commands, set_graph_function)
#   instances  instances made, traced (function tracer with a filter) and
#              removed, half of them while their tracer is still on
#   modules    ftstress.ko (ours, 256 functions) and in-tree modules loaded
#              and unloaded while the "modtrace" instance's function tracer
#              covers ftstress through a ":mod:" filter written before each
#              load; every load of ftstress must show its functions traced
#   writers    4 concurrent writers to set_ftrace_filter, set_ftrace_notrace
#              and set_graph_function
#   fuzz       tfuzz on files no other job writes (an instance's filter
#              and pid files, set_graph_notrace, stack_trace_filter)
# Phase 2, load still running: tfuzz on the top-level filter files and
# function_profile_enabled (the profiler takes the function graph hook, so
# while it is on function_graph is refused: not beside the tracers job).
# Then: the function tracer must still trace, and the kernel log must hold
# no oops, WARN, BUG, lockdep, KASAN or RCU-stall line.
# The results are the KTAP document "stress" (harness/guest/ktap.sh), read
# by harness/stress.sh through harness/check.py: one result per job,
# "ok N JOB # count=N errors=N seconds=S", the details of a failed one as
# diagnostic lines before it.  Progress lines (STRESSP| and, at debug
# size, STRESSW|) are data for the reader.
T=/sys/kernel/tracing
. /harness/ktap.sh
cd $T || exit 1
size=short seed=1 only=all
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	stress_jobs=*) only=,${arg#stress_jobs=}, ;;
	stress=*) size=${arg#stress=} ;;
	stress_seed=*) seed=${arg#stress_seed=} ;;
	esac
done
case "$size" in
full) cycles=1000 insts=200 mods=200 wr=500 fuzz1=75000 fuzz2=25000 ;;
debug) cycles=4 insts=4 mods=4 wr=10 fuzz1=300 fuzz2=100 ;;
*) cycles=40 insts=20 mods=20 wr=50 fuzz1=3000 fuzz2=1000 ;;
esac
# A progress line every PSTEP steps of a job (every step at debug size).
pstep=10
[ "$size" = debug ] && pstep=1
echo "HARNESS: stress size=$size seed=$seed cycles=$cycles instances=$insts modules=$mods writers=4x$wr fuzz=$((fuzz1 + fuzz2))"
# Kernel messages would split the result lines: the console takes only
# emergencies; the log is read from dmesg at the end.  At debug size the
# console takes warnings too: a debug run that stops making progress must
# show why (lockdep, a blocked task) before the host's timeout kills it.
if [ "$size" = debug ]; then
	echo 5 > /proc/sys/kernel/printk
else
	echo 1 > /proc/sys/kernel/printk
fi
dmesg -c > /dev/null
W=/tmp/stress
mkdir -p $W
now() { cut -d' ' -f1 /proc/uptime; }
t_start=$(now)

# job_done NAME COUNT ERRORS START: a job's result, for the report.
job_done() {
	echo "$1 count=$2 errors=$3 seconds=$(awk "BEGIN{printf \"%.0f\", $(now)-$4}")" > $W/$1.res
}
# progress NAME I: a progress line every PSTEP-th step.
progress() {
	[ $(($2 % pstep)) = 0 ] && echo "STRESSP| $1 $2 at $(now)"
	return 0
}
# note NAME TEXT: a detail for the report (first 20 per job kept).
note() {
	n=$(wc -l < $W/$1.log 2>/dev/null || echo 0)
	[ "$n" -lt 20 ] && echo "$1: $2" >> $W/$1.log
}

# The load: one busy shell per vCPU, until phase 2 ends.
for c in $(seq "$(nproc)"); do
	(while [ ! -f $W/stop ]; do
		cat /proc/version /proc/self/stat > /dev/null
		ls / > /dev/null
	done) &
done

# At debug size, every 5 minutes: each task that is running or blocked,
# with the top of its kernel stack (STRESSW lines, for the reader only).
if [ "$size" = debug ]; then
	(while sleep 300 && [ ! -f $W/stop ]; do
		echo "STRESSW| at $(now)"
		for p in /proc/[0-9]*; do
			st=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' $p/status 2>/dev/null)
			case "$st" in
			R|D) echo "STRESSW| ${p#/proc/} $(cat $p/comm 2>/dev/null) $st" \
				"$(head -n 4 $p/stack 2>/dev/null | tr '\n' ' ')" ;;
			esac
		done
	done) &
	watcher=$!
fi

graph=0
grep -qw function_graph available_tracers && graph=1

job_tracers() {
	start=$(now) err=0 i=0
	while [ $i -lt $cycles ]; do
		i=$((i + 1))
		progress tracers $i
		echo 1 > tracing_on
		case $((i % 8)) in
		0) echo 'vfs_*' > set_ftrace_filter ;;
		1) echo '*lock*' > set_ftrace_filter
		   echo '!*spin*' >> set_ftrace_filter ;;
		2) echo '*:mod:ftstress' > set_ftrace_filter
		   echo 'ksys_read' >> set_ftrace_filter ;;
		3) echo 'vfs_read:traceon' > set_ftrace_filter
		   echo 'kernel_clone:stacktrace:3' >> set_ftrace_filter ;;
		4) echo 'kernel_clone' > set_ftrace_filter
		   echo '*rcu*' > set_ftrace_notrace ;;
		5) echo 'schedule*' > set_ftrace_filter
		   echo '!schedule_timeout' >> set_ftrace_filter ;;
		6) echo 'do_sys*' > set_ftrace_filter
		   echo '!do_sys_poll' >> set_ftrace_filter ;;
		7) echo '*:mod:trace_events_sample' > set_ftrace_filter 2>/dev/null
		   echo 'vfs_write' >> set_ftrace_filter ;;
		esac
		# Every 100th cycle (an odd one: the function tracer) traces
		# every function.
		[ $((i % 100)) = 25 ] && echo > set_ftrace_filter
		tracer=function
		if [ $graph = 1 ] && [ $((i % 2)) = 0 ]; then
			tracer=function_graph
			echo 'vfs_*' > set_graph_function
		fi
		if ! echo $tracer 2> $W/tracer.why > current_tracer; then
			err=$((err + 1))
			note tracers "cycle $i: $tracer refused: $(cat $W/tracer.why)"
			dmesg | tail -n 5 | while read -r l; do note tracers "  | $l"; done
		fi
		cat /proc/version > /dev/null
		if ! echo nop > current_tracer; then
			err=$((err + 1)); note tracers "cycle $i: nop refused"
		fi
		case $((i % 8)) in
		3) echo '!vfs_read:traceon' >> set_ftrace_filter
		   echo '!kernel_clone:stacktrace' >> set_ftrace_filter ;;
		4) echo > set_ftrace_notrace ;;
		esac
		[ $tracer = function_graph ] && echo > set_graph_function
	done
	echo > set_ftrace_filter
	echo 1 > tracing_on
	job_done tracers $i $err "$start"
}

job_instances() {
	start=$(now) err=0 i=0
	while [ $i -lt $insts ]; do
		i=$((i + 1))
		progress instances $i
		d=instances/st$i
		if ! mkdir $d; then
			err=$((err + 1)); note instances "mkdir $d failed"; continue
		fi
		echo 'vfs_*' > $d/set_ftrace_filter
		[ $((i % 3)) = 0 ] && echo '*:mod:ftstress' >> $d/set_ftrace_filter
		if ! echo function > $d/current_tracer; then
			err=$((err + 1)); note instances "$d: function refused"
		fi
		cat /proc/version > /dev/null
		# Half of them go while their tracer is still on.
		[ $((i % 2)) = 0 ] && echo nop > $d/current_tracer
		if ! rmdir $d; then
			# A busy instance refuses rmdir; turn it off and retry.
			echo nop > $d/current_tracer
			rmdir $d || { err=$((err + 1)); note instances "rmdir $d failed"; }
		fi
	done
	job_done instances $i $err "$start"
}

job_modules() {
	start=$(now) err=0 i=0 seen=0
	kmods=$(for m in kprobe_example fprobe_example trace-events-sample \
			trace-printk ftrace-direct kretprobe_example; do
		find /lib/modules -name "$m.ko" | head -n 1
	done)
	m=instances/modtrace
	mkdir $m
	echo ksys_write > $m/set_ftrace_filter
	echo function > $m/current_tracer
	while [ $i -lt $mods ]; do
		i=$((i + 1))
		progress modules $i
		# A ":mod:" filter for a module not loaded yet.
		echo '*:mod:ftstress' >> $m/set_ftrace_filter
		echo > $m/trace
		if ! insmod /harness/ftstress.ko; then
			err=$((err + 1)); note modules "cycle $i: insmod ftstress failed"
			continue
		fi
		echo 1 > /sys/module/ftstress/parameters/run
		n=$(grep -c ' ftstress_fn_' $m/trace || true)
		if [ "$n" -gt 0 ]; then
			seen=$((seen + 1))
		else
			err=$((err + 1)); note modules "cycle $i: ftstress loaded, no function of it traced"
		fi
		# An in-tree module alongside, in turn.
		k=$(echo "$kmods" | sed -n "$(( (i % 6) + 1 ))p")
		if [ -n "$k" ]; then
			insmod "$k" 2> /dev/null && { cat /proc/version > /dev/null; rmmod "$k"; }
		fi
		if ! rmmod ftstress; then
			err=$((err + 1)); note modules "cycle $i: rmmod ftstress failed"
		fi
	done
	echo nop > $m/current_tracer
	rmdir $m
	echo "modules-traced count=$seen" > $W/modseen.txt
	job_done modules $i $err "$start"
}

# job_writer K: one of the 4 concurrent writers.
job_writer() {
	start=$(now) err=0 i=0
	case $1 in
	1) f=set_ftrace_filter ;; 2) f=set_ftrace_notrace ;;
	3) f=set_graph_function ;; *) f=set_ftrace_filter ;;
	esac
	[ -w $f ] || { job_done writer$1 0 0 "$start"; return; }
	while [ $i -lt $wr ]; do
		i=$((i + 1))
		progress writer$1 $i
		case $(( (i + $1) % 6 )) in
		0) echo 'vfs_read' >> $f ;;
		1) echo '*sched*' >> $f ;;
		2) echo '!*sched*' >> $f ;;
		3) echo '*:mod:ftstress' >> $f ;;
		4) echo 'no_such_function_xyz' >> $f 2> /dev/null ;;
		5) echo > $f ;;
		esac
	done
	echo > $f
	job_done writer$1 $i $err "$start"
}

# job_fuzz NAME COUNT SEED FILE...: tfuzz on the named files.
job_fuzz() {
	name=$1 count=$2 s=$3; shift 3
	start=$(now)
	args=
	# tfuzz makes (and removes) its instance itself; a top-level file the
	# kernel lacks is left out here.
	for f in "$@"; do
		case "$f" in instances/*) ;; *) [ -e "$f" ] || continue ;; esac
		args="$args -f $f"
	done
	# shellcheck disable=SC2086
	/harness/tfuzz -n "$count" -s "$s" $args > $W/$name.out 2>&1
	rc=$?
	last=$(tail -n 1 $W/$name.out)
	echo "$name: $last" >> $W/$name.log
	if [ $rc != 0 ]; then
		grep -v '^tfuzz: [0-9]' $W/$name.out | head -n 19 | sed "s/^/$name: /" >> $W/$name.log
	fi
	cases=$(echo "$last" | sed -n 's/^tfuzz: \([0-9]*\) cases.*/\1/p')
	job_done "$name" "${cases:-0}" $((rc != 0)) "$start"
}

# want JOB: is JOB one of those to run?  skip JOB...: result lines saying so.
want() { [ "$only" = all ] || case "$only" in *,$1,*) true ;; *) false ;; esac; }
skip() { for j; do echo "$j count=0 errors=0 seconds=0 skipped" > $W/$j.res; done; }

# A refused write is expected now and then (writers race; a word matches
# nothing): the shell's complaints go to files, not the console.
if want tracers; then job_tracers 2> $W/tracers.err & else skip tracers; fi
if want instances; then job_instances 2> $W/instances.err & else skip instances; fi
if want modules; then job_modules 2> $W/modules.err &
else skip modules; echo "modules-traced count=0" > $W/modseen.txt; fi
for k in 1 2 3 4; do
	if want writers; then job_writer $k 2> $W/writer$k.err & else skip writer$k; fi
done
if want fuzz; then
	job_fuzz fuzz-1 $fuzz1 "$seed" instances/tfuzz/set_ftrace_filter \
		instances/tfuzz/set_ftrace_notrace instances/tfuzz/set_ftrace_pid \
		instances/tfuzz/set_ftrace_notrace_pid set_graph_notrace \
		stack_trace_filter &
else
	skip fuzz-1
fi
# Wait for the jobs (not the load).
while [ "$(ls $W/*.res 2>/dev/null | wc -l)" -lt 8 ] || [ ! -f $W/modseen.txt ]; do sleep 1; done
echo "HARNESS: stress phase 1 done after $(awk "BEGIN{printf \"%.0f\", $(now)-$t_start}") s"
echo "HARNESS: stress phase 2"
if want fuzz; then
	job_fuzz fuzz-2 $fuzz2 $((seed + 1)) set_ftrace_filter set_ftrace_notrace \
		set_graph_function set_ftrace_pid set_ftrace_notrace_pid \
		function_profile_enabled
fi
touch $W/stop
[ -n "${watcher:-}" ] && kill "$watcher" 2> /dev/null
wait

# Still tracing: the function tracer sees a known function.
# What the jobs may have left (a fuzzed "traceoff" probe that fired, a
# PID filter) is reset first, as a user would.
start=$(now) err=0
echo 1 > tracing_on
for f in set_ftrace_notrace set_ftrace_pid set_ftrace_notrace_pid \
	 set_graph_function set_graph_notrace set_event_pid; do
	[ -w $f ] && echo > $f
done
echo vfs_read > set_ftrace_filter
echo > trace
echo function > current_tracer
# The shell's read reads with read(2); busybox cat may use sendfile.
read -r _ < /proc/version
# Stop the buffer and read it before switching tracer: a new tracer
# (nop included) starts with an empty buffer.
echo 0 > tracing_on
grep -v '^#' trace > $W/final.trace
echo nop > current_tracer
echo 1 > tracing_on
if ! grep -q ' vfs_read' $W/final.trace; then
	err=1; note final "the function tracer no longer traces vfs_read"
	note final "tracing_on $(cat tracing_on), filter '$(cat set_ftrace_filter)', trace: $(head -n 3 $W/final.trace)"
	note final "pid '$(cat set_ftrace_pid)' notrace_pid '$(cat set_ftrace_notrace_pid 2>/dev/null)' enabled: $(cat enabled_functions | head -n 3) cpumask $(cat tracing_cpumask) options: $(grep -E 'function|record|trace_printk' trace_options | tr '\n' ' ')"
fi
echo > set_ftrace_filter
job_done final 1 $err "$start"

# The kernel log: any splat fails the run; the first is shown.
dmesg > $W/dmesg
pat='WARNING:|BUG:|Oops|general protection|Kernel panic|INFO: task .* blocked|possible circular|possible recursive|inconsistent lock|suspicious RCU|lockdep|KASAN|self-detected stall|rcu_.* stall|ftrace failed|ftrace faulted|Call Trace'
splat=$(grep -m 1 -n -E "$pat" $W/dmesg | cut -d: -f1)
if [ -n "$splat" ]; then
	echo "kernel-log count=1 errors=1 seconds=0" > $W/kernel-log.res
	sed -n "$((splat > 5 ? splat - 5 : 1)),$((splat + 30))p" $W/dmesg | sed 's/^/dmesg: /' > $W/kernel-log.log
else
	echo "kernel-log count=$(wc -l < $W/dmesg) errors=0 seconds=0" > $W/kernel-log.res
	# What fills the log, most frequent first (times and numbers folded).
	sed -e 's/^\[[^]]*\] *//' -e 's/[0-9][0-9]*/N/g' $W/dmesg | sort | uniq -c |
		sort -rn | head -n 5 | sed 's/^/kernel-log: /' > $W/kernel-log.log
fi
# The report: a result per job, its notes before it.
ktap_start stress
for r in $W/*.res; do
	read -r job data < "$r"
	case "$data" in
	*skipped) ktap_skip "$job" "not in stress_jobs"; continue ;;
	esac
	[ -s "$W/$job.log" ] && ktap_diag "$(cat "$W/$job.log")"
	case "$data" in
	*errors=0\ *) ktap_ok "$job" "$data" ;;
	*) ktap_bad "$job" "$data" ;;
	esac
done
ktap_diag "$(cat $W/modseen.txt)"
ktap_diag "total seconds=$(awk "BEGIN{printf \"%.0f\", $(now)-$t_start}")"
echo 4 > /proc/sys/kernel/printk
ktap_end
