#!/bin/sh
# Every module the kernel was built with, loaded at once, traced and
# unloaded (guest mode harness=modload): on a distribution's config
# (VARIANT=debian) the module records then outnumber vmlinux's, so the
# core's module paths carry the load.  The checks are the KTAP document
# "modload" (harness/guest/ktap.sh), which harness/check.py judges; the
# kernel log follows as "DMESG| " lines.
#   1. modprobe every module of /lib/modules (a module whose hardware is
#      absent may refuse to load: only the count is checked);
#   2. every loaded module with code has records, and ":mod:NAME" selects
#      exactly the functions available_filter_functions lists for it;
#   3. the function tracer on every function: enabled_functions lists
#      every record; function_graph on every function; a module loaded
#      and unloaded while the function tracer traces everything;
#   4. rmmod every module: the records are vmlinux's again.
T=/sys/kernel/tracing
. /harness/ktap.sh
ktap_start modload
trap 'echo nop > $T/current_tracer; ktap_end; dmesg | sed "s/^/DMESG| /"' EXIT
# Console messages (each driver's probe) would split the result lines.
echo 1 > /proc/sys/kernel/printk
# A module may ask the kernel for another by alias while it loads (drbg's
# self-test wants "crypto-sha512"); the kernel runs /sbin/modprobe for
# that, as on a distribution, but busybox's links are in /bin only.
# Without this the request fails and testmgr WARNs on either kernel.
[ -w /proc/sys/kernel/modprobe ] && echo /bin/modprobe > /proc/sys/kernel/modprobe

mdir=/lib/modules/$(uname -r)
all=$(find "$mdir" -name '*.ko' | sed 's,.*/,,; s,\.ko$,,; s,-,_,g' | sort -u)
n_all=$(echo "$all" | grep -c .)
vmlinux_recs=$(wc -l < $T/available_filter_functions)
echo "modload: $n_all modules, $vmlinux_recs records before loading"

# 1. Load them all.
start=$(date +%s)
refused=
for m in $all; do modprobe -q "$m" 2>/dev/null || refused="$refused $m"; done
loaded=$(wc -l < /proc/modules)
took=$(($(date +%s) - start))
echo "modload: refused to load:$refused"
if [ "$n_all" -gt 0 ] && [ $((loaded * 2)) -ge "$n_all" ]; then
	ktap_ok "modules loaded" "$loaded of $n_all in $took s"
else
	ktap_fail "modules loaded" "only $loaded of $n_all"
fi

# 2. Records of every loaded module.
recs=$(wc -l < $T/available_filter_functions)
mod_recs=$(grep -c ' \[' $T/available_filter_functions)
if [ $((recs - vmlinux_recs)) = "$mod_recs" ] && [ "$mod_recs" -gt 0 ]; then
	ktap_ok "module records" "$mod_recs module records beside $vmlinux_recs of vmlinux"
else
	ktap_fail "module records" "$recs records after loading, $vmlinux_recs before, $mod_recs with a module name"
fi
# Each loaded module with records: ":mod:NAME" selects exactly the
# lines available_filter_functions names it on.
names=$(sed -n 's/.* \[\([^]]*\)\]$/\1/p' $T/available_filter_functions | sort | uniq -c)
echo "$names" | while read -r want name; do
	echo ":mod:$name" > $T/set_ftrace_filter 2>/dev/null || { echo "$name: write refused"; continue; }
	got=$(wc -l < $T/set_ftrace_filter)
	[ "$got" = "$want" ] || echo "$name: :mod: selects $got, listed $want"
	echo > $T/set_ftrace_filter
done > /tmp/modload.mod
checked=$(echo "$names" | grep -c .)
bad=$(grep -c . /tmp/modload.mod)
if [ "$bad" = 0 ] && [ "$checked" -gt 0 ]; then
	ktap_ok ":mod: selects each module's functions" "$checked modules"
else
	ktap_diag "$(head -n 20 /tmp/modload.mod)"
	ktap_fail ":mod: selects each module's functions" "$bad of $checked modules differ"
fi

# 3. Every function traced, module functions included.  enabled_functions
# has a line a record, the name first (a direct call's target follows on
# a line of its own, indented); the samples loaded above keep ops of their
# own (kprobes, direct calls, a live patch), so nop leaves theirs.
enabled_names() { grep -v '^[[:space:]]' $T/enabled_functions | cut -d' ' -f1,2 | sort; }
# Records the core lists but can never enable (6.1 names them
# __ftrace_invalid_address___N).
usable=$(grep -vc '^__ftrace_invalid_address__' $T/available_filter_functions)
enabled_names > /tmp/modload.before
echo function > $T/current_tracer
enabled=$(enabled_names | grep -c .)
ls -R /sys/module > /dev/null
traced=$(grep -c '^[^[:space:]]* \[' $T/enabled_functions)
echo nop > $T/current_tracer
if [ "$enabled" = "$usable" ]; then
	ktap_ok "function tracer on every record" "$enabled, $traced of them in modules"
else
	ktap_fail "function tracer on every record" "enabled_functions has $enabled, available_filter_functions $usable"
fi
if enabled_names | cmp -s - /tmp/modload.before; then
	ktap_ok "nop leaves the other ops' records" "$(grep -c . /tmp/modload.before)"
else
	ktap_diag "$(enabled_names | diff /tmp/modload.before - | head -n 20)"
	ktap_fail "nop leaves the other ops' records"
fi
if echo function_graph > $T/current_tracer 2>/dev/null; then
	ls /sys/module > /dev/null
	echo nop > $T/current_tracer
	ktap_ok "function_graph on every function"
else
	ktap_skip "function_graph on every function" "no function_graph tracer"
fi
# A module leaves and comes back while every function is traced: its
# records go and come back enabled.
m=$(sed -n 's/^\([^ ]*\) [0-9]* 0 - Live.*/\1/p' /proc/modules | head -n 1)
echo function > $T/current_tracer
if [ -n "$m" ] && rmmod "$m" 2>/dev/null; then
	gone=$(grep -c "^[^ ]* \[$m\]" $T/enabled_functions)
	modprobe -q "$m"
	back=$(grep -c "^[^ ]* \[$m\]" $T/enabled_functions)
	listed=$(grep -c " \[$m\]\$" $T/available_filter_functions)
	if [ "$gone" = 0 ] && [ "$back" = "$listed" ]; then
		ktap_ok "module reloaded while tracing" "$m: $back functions traced again"
	else
		ktap_fail "module reloaded while tracing" "$m: $gone left after rmmod, $back of $listed enabled after modprobe"
	fi
else
	ktap_skip "module reloaded while tracing" "no unused module to unload"
fi
echo nop > $T/current_tracer

# 4. Unload them all: passes until none more goes (dependencies first).
while :; do
	n=0
	for m in $(sed -n 's/^\([^ ]*\) [0-9]* 0 .*/\1/p' /proc/modules); do
		rmmod "$m" 2>/dev/null && n=$((n + 1))
	done
	[ $n = 0 ] && break
done
left=$(wc -l < /proc/modules)
# Those left, with their use counts, for whoever reads the log.
echo "modload: left loaded:$(awk '{ printf " %s:%s", $1, $3 }' /proc/modules)"
now=$(wc -l < $T/available_filter_functions)
in_mods=$(grep -c ' \[' $T/available_filter_functions)
if [ "$now" = $((vmlinux_recs + in_mods)) ]; then
	ktap_ok "records after unloading" "$now ($left modules could not be unloaded, $in_mods records of theirs)"
else
	ktap_fail "records after unloading" "$now records, $vmlinux_recs before loading, $in_mods of modules still loaded"
fi
