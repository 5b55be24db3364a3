#!/bin/sh
# The guest's kselftest mode: the kernel's own selftests of in-tree ftrace
# users that initramfs.sh shipped in /kselftest/DIR (see
# harness/kselftest-root.sh), each script of DIR/tests in order, as
# kselftest's runner would (exit 0 pass, 4 skip, other fail).
# Output, read by harness/check.py kselftest:
#   KST| PASS|FAIL|SKIP DIR/SCRIPT rc=N seconds=S
#   KSTOUT| DIR/SCRIPT: LINE    the script's output
#   DMESG| LINE                 the kernel log at the end (the console
#                               takes only emergencies during the tests)
# The tools they need (bash, coreutils, kmod, procps) are in /opt/deb/bin.
export PATH=/opt/deb/bin:$PATH
# test-sysfs.sh calls /bin/stat --format, which busybox's stat lacks.
[ -x /opt/deb/bin/stat ] && ln -sf /opt/deb/bin/stat /bin/stat
level=$(cut -f1 /proc/sys/kernel/printk)
echo 1 > /proc/sys/kernel/printk
n=0
for d in /kselftest/*/; do
	[ -f "$d/tests" ] || continue
	dir=$(basename "$d")
	for t in $(cat "$d/tests"); do
		start=$(cut -d' ' -f1 /proc/uptime)
		(cd "$d" && bash "./$t") > /tmp/kst.out 2>&1
		rc=$?
		end=$(cut -d' ' -f1 /proc/uptime)
		case $rc in 0) r=PASS ;; 4) r=SKIP ;; *) r=FAIL ;; esac
		sed "s#^#KSTOUT| $dir/$t: #" /tmp/kst.out
		echo "KST| $r $dir/$t rc=$rc seconds=$(awk "BEGIN{printf \"%.1f\", $end-$start}")"
		n=$((n + 1))
	done
done
# The dump first, so that no late console message splits its lines.
dmesg | sed 's/^/DMESG| /'
echo "$level" > /proc/sys/kernel/printk
echo "HARNESS: kselftest ran $n scripts"
