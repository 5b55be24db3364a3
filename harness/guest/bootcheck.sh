#!/bin/sh
# Boot-time ftrace parameters, checked after boot (guest mode harness=bootcheck).
# make check boots with
#   ftrace=function ftrace_filter=vfs_read,no_such_fn_xyz
#   ftrace_notrace=no_such_fn_abc,vfs_write
# A word that names no function is dropped on its own; the others apply
# (core review, finding 9).  What each file must read is worked out from
# /proc/cmdline and available_filter_functions, so other lists work too.
# The checks are the KTAP document "bootcheck" (harness/guest/ktap.sh),
# which harness/check.py judges.
T=/sys/kernel/tracing
tmp=/tmp/bootcheck
mkdir -p $tmp
. /harness/ktap.sh

pass() { ktap_ok "$1"; }
failed() { ktap_fail "$1" "$2"; }
ktap_start bootcheck
# The document ends however the script does, followed by the kernel log
# ("DMESG| " lines): the console takes only emergencies while the checks
# run, and the host looks for splats in both.
trap 'ktap_end; dmesg | sed "s/^/DMESG| /"' EXIT

tracer= filter= notrace= have_filter=0
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	ftrace=*) tracer=${arg#ftrace=} ;;
	ftrace_filter=*) filter=${arg#ftrace_filter=}; have_filter=1 ;;
	ftrace_notrace=*) notrace=${arg#ftrace_notrace=} ;;
	esac
done
if [ -z "$tracer" ] || [ $have_filter = 0 ]; then
	failed cmdline "no ftrace= or ftrace_filter= on the kernel command line"
	exit 1
fi
echo "bootcheck: ftrace=$tracer ftrace_filter=$filter ftrace_notrace=$notrace"

# known WORDS...: the words that name a traceable function, one a line, sorted.
known() {
	for w in "$@"; do
		grep -Fqx "$w" $T/available_filter_functions && echo "$w"
	done | sort
}
want_filter=$(known $(echo "$filter" | tr , ' '))
want_notrace=$(known $(echo "$notrace" | tr , ' '))
# enabled_functions: the filter minus notrace.  A list with no known word
# checks nothing useful, so it fails.
want_enabled=$(for f in $want_filter; do
	echo "$want_notrace" | grep -Fqx "$f" || echo "$f"; done)

# Console messages would split the result lines.
level=$(cut -f1 /proc/sys/kernel/printk)
echo 1 > /proc/sys/kernel/printk

got=$(cat $T/current_tracer)
if [ "$got" = "$tracer" ]; then pass current_tracer
else failed current_tracer "reads '$got', not '$tracer'"; fi

got=$(sort $T/set_ftrace_filter)
if [ -n "$want_filter" ] && [ "$got" = "$want_filter" ]; then pass set_ftrace_filter
else failed set_ftrace_filter "reads '$(echo "$got" | head -n 3 | tr '\n' ' ')', not '$(echo $want_filter)'"; fi

got=$(sort $T/set_ftrace_notrace)
[ -n "$want_notrace" ] || want_notrace='#### no functions disabled ####'
if [ "$got" = "$want_notrace" ]; then pass set_ftrace_notrace
else failed set_ftrace_notrace "reads '$(echo "$got" | head -n 3 | tr '\n' ' ')', not '$(echo $want_notrace)'"; fi

cut -d' ' -f1 $T/enabled_functions | sort > $tmp/enabled
n=$(wc -l < $tmp/enabled)
if [ -n "$want_enabled" ] && [ "$(cat $tmp/enabled)" = "$want_enabled" ]; then
	pass enabled_functions
else
	failed enabled_functions "$n lines (first: $(head -n 3 $tmp/enabled | tr '\n' ' ')), not '$(echo $want_enabled)'"
fi
echo "$level" > /proc/sys/kernel/printk
echo "bootcheck: enabled_functions:"
sed 's/^/bootcheck: | /' $T/enabled_functions | head -n 5

# Last, a damaged call site (harness/modules/ftcorrupt, built so: no
# kernel interface writes text for it, and the sample of sites read as
# the module loads leaves it out).  Tracing it must fail in a live update
# with one report naming the function, and leave ftrace off for good,
# while the kernel and its trace events go on.
# It is last because ftrace stays off afterwards.
[ -f /harness/ftcorrupt.ko ] || exit 0
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
echo > $T/set_ftrace_notrace
report='the call site does not hold the expected instruction at ftcorrupt_victim'
# An instance traces ksys_sync() through its ops' own trampoline while
# ftrace dies; removing the instance afterwards frees that ops while the
# frozen site still calls the trampoline, which must call nothing by then
# (on a KASAN kernel a use after free is reported otherwise; here, the
# console must stay clean).
inst=$T/instances/bootcheck-dead
if mkdir $inst 2> /dev/null; then
	echo ksys_sync > $inst/set_ftrace_filter
	echo function > $inst/current_tracer
fi
if ! insmod /harness/ftcorrupt.ko; then
	failed "damaged site module loads" "ftcorrupt.ko did not load"
	exit 1
fi
# The load's sample must not have found it: that would test another path.
if dmesg | grep -q 'in module ftcorrupt, loading'; then
	failed "damaged site found when traced" "found as the module loaded"
	exit 1
fi
echo 1 > /proc/sys/kernel/printk
echo ftcorrupt_victim > $T/set_ftrace_filter
echo function > $T/current_tracer 2> /dev/null
n=$(dmesg | grep -cE "$report")
case "$(uname -m)" in
aarch64) found='f0 03 10 aa' ;;
*) found='0f 1f 40 00 90' ;;
esac
if [ "$n" = 1 ] && dmesg | grep -q "found    $found"; then
	pass "damaged site reported once, with the bytes found"
else
	failed "damaged site reported once" "$n reports naming ftcorrupt_victim"
fi
# Off for good: the function tracer, started again on every function,
# patches nothing and traces nothing (as in 6.1, it still "starts").
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
echo > $T/trace
echo 1 > $T/tracing_on
echo function > $T/current_tracer 2> /dev/null
sleep 1
echo nop > $T/current_tracer 2> /dev/null
n=$(grep -c ' <-' $T/trace)
e=$(cat $T/enabled_functions 2> /dev/null | grep -c .)
if [ "$n" = 0 ] && [ "$e" = 0 ]; then
	pass "damaged site leaves ftrace off"
else
	failed "damaged site leaves ftrace off" "$n function entries traced, $e sites enabled"
fi
if [ "$(dmesg | grep -cE "$report")" = 1 ]; then
	pass "damaged site reported no more"
else
	failed "damaged site reported no more" "$(dmesg | grep -cE "$report") reports"
fi
if [ -d $inst ]; then
	echo nop > $inst/current_tracer 2> /dev/null
	rmdir $inst
	sync; sync
	if [ -d $inst ]; then
		failed "instance removed after ftrace is off" "$inst is still there"
	else
		pass "instance removed after ftrace is off"
	fi
fi
# Trace events still work.
echo > $T/trace
echo 1 > $T/tracing_on
echo 1 > $T/events/sched/sched_switch/enable
sleep 1
echo 0 > $T/events/sched/sched_switch/enable
if grep -q 'sched_switch:' $T/trace; then
	pass "trace events work after ftrace is off"
else
	failed "trace events work after ftrace is off" "no sched_switch event in trace"
fi
echo "$level" > /proc/sys/kernel/printk
