#!/bin/sh
# The guest's tools mode: the tools people trace with, driven as their
# users drive them, each result checking what the tool printed and what the
# kernel shows while and after it runs (make check-tools; a short run in
# make check).  The tools are Debian 12's (harness/clients-root.sh, set
# "tools"), in /opt/tools/bin.
#
# The results are the KTAP document "tools" (harness/guest/ktap.sh).  Each
# timed step prints "TOOLS| NAME SECONDS" (the guest's clock: under
# ICOUNT=1 an instruction count, as make bench's), and cyclictest its
# latencies as "TOOLS| cyclictest-max-us N" (the highest of its runs) and
# "TOOLS| cyclictest-median-max-us N"; harness/check-tools.sh puts
# them side by side for ours and the unmodified kernel.
# tools_short=1 (make check) leaves out the slow steps; tools_only=cyclictest
# runs cyclictest under tracer toggles alone, tools_only=perf perf's probe
# tests alone; cyclictest_toggles=N and cyclictest_rounds=N change its
# toggles per run and its runs (toggles 0: cyclictest's floor on this
# machine, with nothing toggling).
export PATH=/opt/tools/bin:/opt/clients/bin:$PATH
T=/sys/kernel/tracing
. /harness/ktap.sh
short=0 only='' cyc_toggles='' cyc_rounds=''
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	tools_short=1) short=1 ;;
	tools_only=*) only=${arg#tools_only=} ;;
	cyclictest_toggles=*) cyc_toggles=${arg#*=} ;;
	cyclictest_rounds=*) cyc_rounds=${arg#*=} ;;
	esac
done
# stress-ng looks for debugfs in the mount table.
[ -e /etc/mtab ] || ln -s /proc/mounts /etc/mtab

# now: seconds of the guest's monotonic clock to the microsecond, from
# /proc/timer_list (busybox's date has no %N), else /proc/uptime's
# hundredths.
if grep -qm1 '^now at [0-9]* nsecs' /proc/timer_list 2> /dev/null; then
	now() { awk '/^now at/ { printf "%.6f\n", $3 / 1e9; exit }' /proc/timer_list; }
else
	now() { cut -d' ' -f1 /proc/uptime; }
fi
# timed NAME CMD...: run CMD, its output in /tmp/out, and print its time.
timed() {
	local name=$1 t0 t1 rc
	shift
	t0=$(now)
	"$@" > /tmp/out 2>&1
	rc=$?
	t1=$(now)
	echo "TOOLS| $name $(awk "BEGIN { printf \"%.3f\", $t1 - $t0 }")"
	return $rc
}
# stamp: each line of the input with the guest's time before it.
stamp() {
	while IFS= read -r l; do echo "$(now) $l"; done
}
# traced NAME PROBE: bpftrace counts the functions of PROBE while the
# reader runs, its output in /tmp/out, each line stamped with the time it
# came.  bpftrace prints "Attaching N probes..." once its program is
# built, starts the reader once the probes are attached, and after the
# reader and END detaches them, prints its maps and exits; so the stamps
# split its run into NAME-start (LLVM, the program: to "Attaching"),
# NAME-attach (to the reader's first line) and NAME-detach (from END to
# its exit); NAME is the whole run.  Its BEGIN and END probes make a
# kprobe_multi run attach 3 probes (multi() relies on the count).
traced() {
	local name=$1 probe=$2 key=${3:-func} t0 rc
	t0=$(now)
	{ bpftrace -e "BEGIN { printf(\"=begin\n\"); } $probe { @[$key] = count(); }
		END { printf(\"=end\n\"); }" -c "$reader"; echo "=rc $?"; } 2>&1 |
		stamp > /tmp/stamped
	sed 's/^[^ ]* //' /tmp/stamped > /tmp/out
	rc=$(sed -n 's/^=rc //p' /tmp/out)
	awk -v n="$name" -v t0="$t0" '
		$2 == "Attaching" { a = $1 } $2 == "=end" { e = $1 } $2 == "=rc" { x = $1 }
		/records in$/ && r == "" { r = $1 }
		END {
			if (a == "" || e == "" || r == "") exit 1
			printf "TOOLS| %s-start %.3f\nTOOLS| %s-attach %.3f\nTOOLS| %s-detach %.3f\nTOOLS| %s %.3f\n",
				n, a - t0, n, r - a, n, x - e, n, x - t0
		}' /tmp/stamped || { ktap_diag "$name: no Attaching, END or reader in bpftrace's output"; return 1; }
	return "$rc"
}
# count NAME: the value of bpftrace's map entry NAME ("@n: 3",
# "@[vfs_read]: 3") in /tmp/out, 0 if absent.
count() {
	awk -v k="$1:" '$1 == k { v = $2 } END { print v + 0 }' /tmp/out
}
# count_probe FUNC: the count of a map keyed by bpftrace's probe builtin
# for FUNC ("@[kfunc:FUNC]: 3", or with the module, "kfunc:vmlinux:FUNC").
count_probe() {
	awk -v f="$1" '$1 ~ ("^@\\[.*:" f "\\]:$") { v += $2 } END { print v + 0 }' /tmp/out
}
# left_over WHAT: a failure if tracing is left enabled anywhere.
left_over() {
	local n
	n=$(wc -l < $T/enabled_functions)
	[ "$n" = 0 ] || { ktap_diag "after $1: $n functions still enabled"; head -n 5 $T/enabled_functions | ktap_diag "$(cat)"; return 1; }
	[ -z "$(cat $T/kprobe_events)" ] || { ktap_diag "after $1: kprobe_events: $(cat $T/kprobe_events)"; return 1; }
	n=$(bpftool prog show 2>/dev/null | grep -cE '^[0-9]*: (kprobe|tracing)')
	[ "$n" = 0 ] || { ktap_diag "after $1: $n kprobe or tracing programs loaded"; return 1; }
	return 0
}
# check NAME COND-RESULT: ok or not ok NAME, with /tmp/out as its log on
# a failure.
check() {
	if [ "$2" = 0 ]; then
		ktap_ok "$1"
	else
		ktap_diag "$(tail -n 30 /tmp/out)"
		ktap_fail "$1"
	fi
}
# names PATTERN: how many traceable functions a glob matches.
names() {
	sed 's/ .*//' $T/available_filter_functions | grep -c "^$(echo "$1" | sed 's/\*/.*/g')\$"
}
# A command that reads with read(2) (busybox cat uses sendfile).
reader='dd if=/proc/version of=/dev/null bs=16'

# cyclictest_toggles: cyclictest's latency on every CPU while the function
# tracer goes on and off on every function and the filter changes under
# it, a fixed number of times (one toggle: function tracer on, two filter
# writes, the filter cleared, nop), so that both kernels are measured
# under the same work however fast each does it; cyclictest runs from
# before the first toggle to after the last.  One run's maximum is one
# sample of a noisy figure, so the full run takes twenty and prints their
# highest and their median (of an even count, the mean of the middle
# two).  Each run must end with every CPU's line and leave ftrace as it
# found it.
cyclictest_toggles() {
	local toggles=10 rounds=20 maxes='' ok=0 r i rc max t0 t1
	[ "$short" = 1 ] && toggles=3 rounds=1
	toggles=${cyc_toggles:-$toggles} rounds=${cyc_rounds:-$rounds}
	# Decimal without a leading zero, and at least one run: a boot that
	# measured nothing must not pass.
	r=0
	case "$toggles" in ''|*[!0-9]*|0?*) r=1 ;; esac
	case "$rounds" in ''|*[!0-9]*|0*) r=1 ;; esac
	if [ $r = 1 ]; then
		ktap_diag "cyclictest_toggles=$toggles cyclictest_rounds=$rounds: toggles must be 0 or more, runs 1 or more, in decimal"
		ktap_fail cyclictest-function-toggles
		return
	fi
	for r in $(seq 1 "$rounds"); do
		cyclictest -t -a -p 80 -i 1000 -q -m > /tmp/out 2>&1 &
		cpid=$!
		sleep 1
		t0=$(now)
		for i in $(seq 1 "$toggles"); do
			echo function > $T/current_tracer
			echo 'vfs_*' > $T/set_ftrace_filter
			echo '*lock*' >> $T/set_ftrace_filter
			echo > $T/set_ftrace_filter
			echo nop > $T/current_tracer
		done
		t1=$(now)
		sleep 1
		kill -INT $cpid
		wait $cpid
		rc=$?
		max=$(awk '/^T:/ { for (i = 1; i < NF; i++) if ($i == "Max:") m = $(i + 1) > m ? $(i + 1) : m } END { print m + 0 }' /tmp/out)
		maxes="$maxes $max"
		ktap_diag "cyclictest run $r: $toggles toggles in $(awk "BEGIN { printf \"%.3f\", $t1 - $t0 }") s, maximum $max us"
		if [ $rc != 0 ] || [ "$(grep -c '^T:.*Max:' /tmp/out)" != "$(nproc)" ]; then
			ktap_diag "cyclictest run $r: exit $rc, $(grep -c '^T:.*Max:' /tmp/out) of $(nproc) CPUs"
			ok=1
		fi
	done
	ktap_diag "cyclictest maxima (us):$maxes"
	echo "TOOLS| cyclictest-max-us $(echo $maxes | tr ' ' '\n' | sort -n | tail -n 1)"
	[ "$rounds" -gt 1 ] &&
		echo "TOOLS| cyclictest-median-max-us $(echo $maxes | tr ' ' '\n' | sort -n |
			awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2); print NR % 2 ? v[m] : (v[m] + v[m + 1]) / 2 }')"
	[ $ok = 0 ] && left_over cyclictest
	check cyclictest-function-toggles $?
}

# perf's own shell tests that put probes (tools-initramfs.sh): a kprobe on
# the line of getname_flags() that its DWARF names, its events recorded
# and read back by perf script, and perf trace beside it.  With the
# kernel's debug info the probe and record tests must pass; none may
# fail; a skip says why.  They are written for a Debian system, whose
# /bin/sh is dash and whose mktemp is coreutils': busybox's sh runs its
# own mktemp whatever PATH says, and that one wants six Xs.  So while
# they run /bin/sh is Debian's dash, which finds busybox's other
# commands as files (/tmp/bb), after coreutils' mktemp and touch.
perf_probe_tests() {
	local dwarf=0 res opath
	[ -e "/usr/lib/debug/boot/vmlinux-$(uname -r)" ] && dwarf=1
	if [ ! -e /usr/lib/perf-core/tests/shell/probe_vfs_getname.sh ] ||
	   ! command -v perf > /dev/null || [ ! -x /opt/tools/bin/dash ]; then
		ktap_skip perf-test-probes "no perf, its shell tests or dash in this initramfs"
		return
	fi
	mkdir -p /tmp/bb
	busybox --install -s /tmp/bb
	ln -sf /opt/tools/bin/dash /bin/sh
	opath=$PATH
	PATH=$PATH:/tmp/bb
	timed perf-test-vfs_getname perf test -v vfs_getname
	PATH=$opath
	ln -sf busybox /bin/sh
	# -v puts each test's verdict on a line of its own, without its number.
	res=$(grep -E '^( *[0-9]+: )?[A-Z].*vfs_getname.*: (Ok|FAILED!|Skip)' /tmp/out)
	ktap_diag "$res"
	[ "$(echo "$res" | grep -c .)" = 3 ] &&
		! echo "$res" | grep -q 'FAILED!' &&
		{ [ $dwarf = 0 ] || [ "$(echo "$res" | grep -E 'Add vfs_getname|Use vfs_getname' | grep -c ': Ok')" = 2 ]; } &&
		[ -z "$(perf probe -l 2> /dev/null)" ] && left_over perf-test
	check perf-test-probes $?
}

ktap_start tools
# tools_only=cyclictest (make check-tools' cyclictest boots), tools_only=perf:
# that step alone.
case "$only" in
cyclictest|perf)
	[ "$only" = cyclictest ] && cyclictest_toggles
	[ "$only" = perf ] && perf_probe_tests
	ktap_end
	exit 0
	;;
esac
if ! command -v bpftrace > /dev/null; then
	ktap_skip bpftrace "no /opt/tools/bin/bpftrace in this initramfs"
	ktap_end
	exit 0
fi
# What bpftrace finds in the kernel: kprobe_multi (BPF on fprobe), what its
# wildcards attach with, wherever the kernel has fprobe (not arm64 6.12,
# stock or ours: its fprobe needs DYNAMIC_FTRACE_WITH_REGS).
kernel=$(uname -r)
fprobe=no
grep -q ' register_fprobe$' /proc/kallsyms && fprobe=yes
bpftrace --info > /tmp/out 2>&1
grep -q "kprobe_multi: $fprobe" /tmp/out
check bpftrace-info-kprobe-multi $?

# One kprobe (kprobes on ftrace): the count of a function the reader calls.
traced bpftrace-kprobe-one kprobe:vfs_read
[ $? = 0 ] && [ "$(count '@[vfs_read]')" -ge 2 ] && left_over bpftrace-kprobe-one
check bpftrace-kprobe-one $?

# Wildcards (one kprobe_multi link each, or one kprobe per function
# without fprobe): while attached, every function bpftrace lists for the
# pattern is in enabled_functions (with fprobe); the reader's functions
# count; afterwards nothing is left.
busy_module=
multi() {
	local name=$1 pat=$2 must=$3 listed
	bpftrace -l "kprobe:$pat" | sed 's/^kprobe://' | sort > /tmp/listed
	listed=$(wc -l < /tmp/listed)
	ktap_diag "$name: kprobe:$pat: $listed functions listed, $(names "$pat") traceable"
	if [ "$fprobe" = no ]; then
		# Over 512 kprobes bpftrace wants the user to ask for them.
		BPFTRACE_MAX_PROBES=$((listed + 2)) traced "$name" "kprobe:$pat" || return 1
		grep -q "^Attaching $((listed + 2)) probes" /tmp/out ||
			{ ktap_diag "$name: not one kprobe per function"; return 1; }
		[ -z "$must" ] || [ "$must" = - ] || [ "$(count "@[$must]")" -ge 2 ] ||
			{ ktap_diag "$name: $must not counted"; return 1; }
		left_over "$name"
		return
	fi
	# Timed first, so that a kernel failing a check below is timed too.
	traced "$name" "kprobe:$pat" || return 1
	grep -q '^Attaching 3 probes' /tmp/out || { ktap_diag "$name: not one kprobe_multi link"; return 1; }
	if [ "$must" = - ]; then
		:
	elif [ -n "$must" ]; then
		[ "$(count "@[$must]")" -ge 2 ] || { ktap_diag "$name: $must not counted"; return 1; }
	else
		grep -q '^@\[.*\]: [1-9]' /tmp/out || { ktap_diag "$name: no function counted"; return 1; }
	fi
	# bpftrace starts its command once every probe is attached: the
	# command takes the snapshot (and tries to unload the module).
	cat > /tmp/attached.sh <<-EOF
		sed 's/ .*//' $T/enabled_functions | sort > /tmp/enabled
		rm -f /tmp/unloaded
		[ -z "$busy_module" ] || ! rmmod "$busy_module" 2> /dev/null || : > /tmp/unloaded
	EOF
	rm -f /tmp/enabled
	bpftrace -e "kprobe:$pat { @[func] = count(); }" -c '/bin/sh /tmp/attached.sh' > /tmp/bg 2>&1
	if ! cmp -s /tmp/listed /tmp/enabled; then
		ktap_diag "$name: enabled_functions while attached differs from bpftrace -l:"
		ktap_diag "$(diff /tmp/listed /tmp/enabled | head -n 10)"
		ktap_diag "$(head -n 20 /tmp/bg)"
		return 1
	fi
	# A kprobe_multi link holds the modules it names (6.12).
	if [ -e /tmp/unloaded ]; then
		ktap_diag "$name: rmmod $busy_module while attached succeeded"
		insmod "/harness/$busy_module.ko"
		return 1
	fi
	left_over "$name"
}
multi bpftrace-kprobe-multi-vfs 'vfs_*' vfs_read
check bpftrace-kprobe-multi-vfs $?
if [ "$short" = 0 ]; then
	multi bpftrace-kprobe-multi-1000 '*_get_*' ''
	check bpftrace-kprobe-multi-1000 $?
fi
# The kernel's part of that attach and detach, without bpftrace's start,
# polling and printing: kmultitime (harness/guest/kmultitime.c) times the
# creation and the close of one kprobe_multi link over the same functions,
# five times (medians).  While attached, enabled_functions must hold them
# all and no other; afterwards, nothing.
kmulti_raw() {
	local rc=0
	bpftrace -l 'kprobe:*_get_*' | sed 's/^kprobe://' | sort > /tmp/kmt-names
	/harness/kmultitime -e /tmp/kmt-enabled /tmp/kmt-names > /tmp/out 2>&1 || rc=$?
	[ $rc = 0 ] || { ktap_diag "kmultitime: exit $rc: $(tail -n 3 /tmp/out)"; return 1; }
	# "functions N enabled E attach S detach S"
	set -- $(sed -n 's/^kmultitime: functions //p' /tmp/out)
	echo "TOOLS| kmulti-raw-1000-attach $5"
	echo "TOOLS| kmulti-raw-1000-detach $7"
	ktap_diag "kmultitime: $1 functions, $3 enabled while attached"
	sed 's/ .*//' /tmp/kmt-enabled | sort > /tmp/enabled
	cmp -s /tmp/kmt-names /tmp/enabled ||
		{ ktap_diag "kmultitime: enabled_functions while attached differs:
$(diff /tmp/kmt-names /tmp/enabled | head -n 10)"; return 1; }
	left_over kmulti-raw-1000
}
if [ "$short" = 0 ] && [ "$fprobe" = yes ] && [ -x /harness/kmultitime ]; then
	kmulti_raw
	check kmulti-raw-1000 $?
fi

# BPF trampolines: bpftrace's kfunc wildcards (fentry programs), one BPF
# program and one trampoline per function, each attached through the
# direct-call API and detached one at a time when bpftrace exits.  While
# attached, enabled_functions holds every function bpftrace lists for the
# pattern; the reader's function counts; afterwards nothing is left.
# Needs BTF (VARIANT=btf or debian); stock arm64 6.1 has no direct calls,
# so no kfunc probe attaches there.
kfunc() {
	local name=$1 pat=$2 must=$3 listed
	# Two files a function (program, link), as a user must raise it.
	ulimit -n 8192
	bpftrace -l "kfunc:$pat" | sed 's/^kfunc://; s/^vmlinux://' | sort > /tmp/listed
	listed=$(wc -l < /tmp/listed)
	ktap_diag "$name: kfunc:$pat: $listed functions listed, $(names "$pat") traceable"
	[ "$listed" -gt 0 ] || { ktap_diag "$name: bpftrace lists no kfunc:$pat"; return 1; }
	# bpftrace 0.17 has no func builtin for kfunc probes: the key is the probe.
	BPFTRACE_MAX_PROBES=$((listed + 2)) traced "$name" "kfunc:$pat" probe || return 1
	grep -q "^Attaching $((listed + 2)) probes" /tmp/out ||
		{ ktap_diag "$name: not one probe per function"; return 1; }
	if [ -n "$must" ]; then
		[ "$(count_probe "$must")" -ge 2 ] || { ktap_diag "$name: $must not counted"; return 1; }
	else
		grep -q '^@\[.*\]: [1-9]' /tmp/out || { ktap_diag "$name: no function counted"; return 1; }
	fi
	left_over "$name" || return 1
	# What the sites call while attached: every listed function, and no
	# other (a direct call's target is on an indented line of its own).
	cat > /tmp/attached.sh <<-EOF
		grep -v '^[[:space:]]' $T/enabled_functions | sed 's/ .*//' | sort > /tmp/enabled
	EOF
	rm -f /tmp/enabled
	BPFTRACE_MAX_PROBES=$((listed + 2)) bpftrace -e "kfunc:$pat { @n = count(); }" \
		-c '/bin/sh /tmp/attached.sh' > /tmp/bg 2>&1
	if ! cmp -s /tmp/listed /tmp/enabled; then
		ktap_diag "$name: enabled_functions while attached differs from bpftrace -l:"
		ktap_diag "$(diff /tmp/listed /tmp/enabled | head -n 10)"
		ktap_diag "$(head -n 20 /tmp/bg)"
		return 1
	fi
	left_over "$name"
}
if [ ! -e /sys/kernel/btf/vmlinux ]; then
	ktap_skip bpftrace-kfunc-ksys "no BTF in this kernel (VARIANT=btf or debian has it)"
else
	kfunc bpftrace-kfunc-ksys 'ksys_*' ksys_read
	check bpftrace-kfunc-ksys $?
	if [ "$short" = 0 ]; then
		case $(uname -m) in aarch64) sys=__arm64_sys_ ;; *) sys=__x64_sys_ ;; esac
		kfunc bpftrace-kfunc-syscalls "$sys*" ''
		check bpftrace-kfunc-syscalls $?
	fi
fi

# Listing what can be probed: every kprobe bpftrace lists is a traceable
# function, and it lists most of them (it leaves out the kprobe blacklist).
timed bpftrace-list bpftrace -l 'kprobe:*'
sed 's/^kprobe://' /tmp/out | sort -u > /tmp/listed
sed 's/ .*//' $T/available_filter_functions | sort -u > /tmp/aff
extra=$(grep -cvxFf /tmp/aff /tmp/listed)
listed=$(wc -l < /tmp/listed) aff=$(wc -l < /tmp/aff)
ktap_diag "bpftrace -l: $listed kprobes, $aff traceable names, $extra listed but not traceable"
[ "$extra" = 0 ] && [ $((listed * 10)) -ge $((aff * 9)) ]
check bpftrace-list $?

# Start-up with a large module loaded (harness/modules/ftwide: 6,000
# functions, as large as the biggest modules distributions load): the
# listing and a read of available_filter_functions name every one of them,
# and a wildcard attaches to all (with fprobe: one kprobe_multi link; 6,000
# kprobes one by one are left out).
if [ -f /harness/ftwide.ko ] && insmod /harness/ftwide.ko; then
	timed bpftrace-list-module bpftrace -l 'kprobe:*'
	n=$(grep -c '^kprobe:ftwide_fn_[0-9]*$' /tmp/out)
	timed read-functions-module cat $T/available_filter_functions
	m=$(grep -c '^ftwide_fn_[0-9]* \[ftwide\]$' /tmp/out)
	ktap_diag "with ftwide loaded: bpftrace -l names $n of its functions, available_filter_functions $m"
	[ "$n" = 6000 ] && [ "$m" = 6000 ]
	check bpftrace-list-module $?
	if [ "$fprobe" = yes ] && [ "${kernel#6.1.}" != "$kernel" ]; then
		# 6.1's BPF kprobe_multi finds its functions' addresses in
		# vmlinux's symbols only (ftrace_lookup_symbols()), stock or
		# ours: the attach fails, and must leave nothing behind.
		bpftrace -e 'kprobe:ftwide_fn_* { @[func] = count(); }' -c true > /tmp/out 2>&1
		if grep -q "^ERROR: Error attaching probe: 'kprobe:ftwide_fn_" /tmp/out &&
		   left_over bpftrace-kprobe-multi-module; then
			ktap_skip bpftrace-kprobe-multi-module "6.1: kprobe_multi on vmlinux functions only"
		else
			check bpftrace-kprobe-multi-module 1
		fi
	elif [ "$fprobe" = yes ]; then
		busy_module=ftwide
		multi bpftrace-kprobe-multi-module 'ftwide_fn_*' -
		rc=$?
		busy_module=
		check bpftrace-kprobe-multi-module $rc
	else
		ktap_skip bpftrace-kprobe-multi-module "no fprobe: 6,000 kprobes one by one"
	fi
	rmmod ftwide
	check ftwide-rmmod $?
fi

# bpftool sees what bpftrace attached: the kprobe in its perf list, the
# program among the loaded ones.
bpftrace -e 'kprobe:vfs_read { @n = count(); }' -c 'sleep 3' > /tmp/bg 2>&1 &
for _ in $(seq 1 300); do
	bpftool perf > /tmp/out 2>&1
	grep -q 'func vfs_read' /tmp/out && break
	sleep 0.1
done
bpftool prog show >> /tmp/out 2>&1
wait
grep -q 'kprobe  func vfs_read' /tmp/out && grep -q '^[0-9]*: kprobe  name vfs_read' /tmp/out &&
	left_over bpftool
check bpftool-perf-prog $?

# bcc: a tool compiles its program with libbcc's clang against the
# kernel's headers when it starts (tools-initramfs.sh brings them), then
# attaches one kprobe per function (perf's kprobe PMU; kprobes on ftrace)
# and detaches them one at a time when it exits.
# bcc_headers: unpack them where bcc looks, in place of the link to the
# build machine's tree that modules_install left there.
bcc_headers() {
	local kh
	kh=/lib/modules/$(uname -r)/build
	[ -d "$kh/include" ] && return 0
	rm -f "$kh"
	mkdir -p "$kh" && gzip -dc /harness/kheaders.tar.gz | tar -x -C "$kh" ||
		{ ktap_diag "bcc: the kernel's headers did not unpack"; return 1; }
}
# bcc_run NAME READY STOP CMD...: run bcc's CMD and, once a line of its
# output matches READY (it has attached), the reader twice; then wait for
# it to exit, or with STOP not empty, for a line matching STOP, and then
# stop it with SIGTERM (trace's -M cannot: bcc 0.26's exit() in its
# Python callback is ignored; and ^C cannot reach a program this script
# starts in the background, which ignores SIGINT); the kernel detaches
# its probes as their files close.  Its output is in /tmp/out;
# with each line's time in /tmp/stamped.  NAME-start is the time to READY
# (Python, the compiler, the attaches), NAME-detach from "Detaching..." to
# its exit, NAME the whole run.
bcc_run() {
	local name=$1 ready=$2 stop=$3 t0 pid i rc
	shift 3
	t0=$(now)
	rm -f /tmp/bcc.pid /tmp/stamped
	{ PYTHONUNBUFFERED=1 "$@" 2>&1 & echo $! > /tmp/bcc.pid; wait $!; echo "=rc $?"; } |
		stamp > /tmp/stamped &
	pid=$!
	for i in $(seq 1 360); do
		grep -qE "^[^ ]* $ready" /tmp/stamped 2> /dev/null && break
		kill -0 $pid 2> /dev/null || break
		sleep 0.5
	done
	$reader 2> /dev/null; $reader 2> /dev/null
	# A tool still running two minutes after its time is stopped (a
	# failure, unless STOP was seen).
	for i in $(seq 1 240); do
		kill -0 $pid 2> /dev/null || break
		[ -n "$stop" ] && grep -qE "^[^ ]* $stop" /tmp/stamped && break
		sleep 0.5
	done
	kill -0 $pid 2> /dev/null && kill "$(cat /tmp/bcc.pid)" 2> /dev/null
	for i in $(seq 1 20); do kill -0 $pid 2> /dev/null && sleep 0.5; done
	kill -0 $pid 2> /dev/null && kill -9 "$(cat /tmp/bcc.pid)" 2> /dev/null
	for i in $(seq 1 20); do kill -0 $pid 2> /dev/null && sleep 0.5; done
	# Unkillable (stuck in the kernel): the rest of the run goes on.
	kill -0 $pid 2> /dev/null && { ktap_diag "$name: does not exit"; return 1; }
	wait $pid
	sed 's/^[^ ]* //' /tmp/stamped > /tmp/out
	rc=$(sed -n 's/^=rc //p' /tmp/out)
	[ -n "$stop" ] && grep -qE "^$stop" /tmp/out && rc=0
	awk -v n="$name" -v t0="$t0" -v ready="^$ready" '
		{ l = $0; sub(/^[^ ]* /, "", l) }
		l ~ ready && a == "" { a = $1 } l == "Detaching..." { d = $1 } $2 == "=rc" { x = $1 }
		END {
			if (a != "") printf "TOOLS| %s-start %.3f\n", n, a - t0
			if (d != "") printf "TOOLS| %s-detach %.3f\n", n, x - d
			printf "TOOLS| %s %.3f\n", n, x - t0
		}' /tmp/stamped
	[ "$rc" = 0 ] || ktap_diag "$name: exit ${rc:-none}: $(grep -v '^ \|^In file\|warning:\|^extern\|^#define\|warnings generated' /tmp/out | tail -n 5)"
	[ "$rc" = 0 ]
}
# funccount over vfs_* (about 70 kprobes) while the reader runs: the count
# of vfs_read; afterwards nothing is left.
bcc_funccount() {
	local n
	bcc_run bcc-funccount-vfs 'Tracing [0-9]+ functions' '' funccount-bpfcc -d 5 'vfs_*' || return 1
	n=$(sed -n 's/^Tracing \([0-9]*\) functions.*/\1/p' /tmp/out)
	ktap_diag "bcc funccount: $n kprobes for vfs_*, $(names 'vfs_*') traceable"
	[ "${n:-0}" -gt 0 ] || return 1
	# The reader's two runs read 10 times each.
	[ "$(awk '$1 == "vfs_read" { print $2 }' /tmp/out)" -ge 20 ] 2> /dev/null ||
		{ ktap_diag "bcc funccount: vfs_read not counted"; return 1; }
	left_over bcc-funccount
}
# trace: vfs_read's size argument, for the reader's 16-byte reads.
bcc_trace() {
	bcc_run bcc-trace 'PID +TID' '[0-9]+ +[0-9]+ +dd +vfs_read +count=16$' \
		trace-bpfcc 'vfs_read (arg3 == 16) "count=%d", arg3' || return 1
	left_over bcc-trace
}
# funclatency: a histogram of vfs_read's time (in nanoseconds), with at
# least the reader's calls in it.
bcc_funclatency() {
	bcc_run bcc-funclatency 'Tracing 1 functions' '' funclatency-bpfcc -d 5 vfs_read || return 1
	grep -qE '[nu]secs *: count' /tmp/out &&
		awk '/\|/ && $4 == ":" { n += $5 } END { exit n < 20 }' /tmp/out ||
		{ ktap_diag "bcc funclatency: no histogram"; return 1; }
	left_over bcc-funclatency
}
if [ "$short" = 0 ]; then
	if ! command -v funccount-bpfcc > /dev/null; then
		ktap_skip bcc "no bcc in this initramfs"
	elif ! bcc_headers; then
		ktap_fail bcc-headers
	else
		bcc_funccount
		check bcc-funccount-vfs $?
		bcc_trace
		check bcc-trace $?
		bcc_funclatency
		check bcc-funclatency $?
	fi
fi

# cyclictest (cyclictest_toggles above): here in make check's short run;
# make check-tools runs it in boots of its own (one vCPU; two on arm64).
if [ "$short" = 1 ]; then
	cyclictest_toggles
fi

if [ "$short" = 0 ]; then
	perf_probe_tests
fi

# stress-ng's own use of ftrace: it counts the kernel functions its
# stressors called through the function profiler.
if [ "$short" = 0 ]; then
	timed stress-ng-ftrace stress-ng --ftrace --cpu 1 -t 3
	rc=$?
	ktap_diag "$(grep -i ftrace /tmp/out | head -n 5)"
	[ $rc = 0 ] && ! grep -q 'cannot' /tmp/out && left_over stress-ng
	check stress-ng-ftrace $?
fi
ktap_end
