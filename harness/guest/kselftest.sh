#!/bin/sh
# The guest's kselftest mode: the kernel's own selftests of in-tree ftrace
# users that initramfs.sh shipped in /kselftest/DIR (see
# harness/kselftest-root.sh), each script of DIR/tests in order, as
# kselftest's runner would (exit 0 pass, 4 skip, other fail).
# The results are the KTAP document "kselftest" (harness/guest/ktap.sh),
# one result DIR/SCRIPT each, as kselftest's runner reports a script: ok,
# "ok # SKIP" (exit 4) or "not ok"; before it, as diagnostic lines, the
# script's output and "DIR/SCRIPT: rc=N seconds=S".  The kernel log
# follows as "DMESG| LINE" data lines (the console takes only emergencies
# during the tests); harness/check.py kselftest reads both.
# The tools they need (bash, coreutils, kmod, procps) are in /opt/deb/bin.
export PATH=/opt/deb/bin:$PATH
# 6.10's livepatch scripts skip unless KDIR names a directory (they could
# build their modules there); the host built them (kselftest-root.sh).
export KDIR=/kselftest
. /harness/ktap.sh
# test-sysfs.sh calls /bin/stat --format, which busybox's stat lacks.
[ -x /opt/deb/bin/stat ] && ln -sf /opt/deb/bin/stat /bin/stat
level=$(cut -f1 /proc/sys/kernel/printk)
echo 1 > /proc/sys/kernel/printk
ktap_start kselftest "$(cat /kselftest/*/tests 2>/dev/null | wc -w)"
for d in /kselftest/*/; do
	[ -f "$d/tests" ] || continue
	dir=$(basename "$d")
	for t in $(cat "$d/tests"); do
		start=$(cut -d' ' -f1 /proc/uptime)
		(cd "$d" && bash "./$t") > /tmp/kst.out 2>&1
		rc=$?
		end=$(cut -d' ' -f1 /proc/uptime)
		ktap_diag "$(cat /tmp/kst.out)"
		ktap_diag "$dir/$t: rc=$rc seconds=$(awk "BEGIN{printf \"%.1f\", $end-$start}")"
		case $rc in
		0) ktap_ok "$dir/$t" ;;
		4) ktap_skip "$dir/$t" "rc=4" ;;
		*) ktap_bad "$dir/$t" "exit=$rc" ;;
		esac
	done
done
ktap_end
# The dump after the document, so that no late console message splits it.
dmesg | sed 's/^/DMESG| /'
echo "$level" > /proc/sys/kernel/printk
