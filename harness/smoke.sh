#!/usr/bin/env bash
# smoke.sh ARCH [FLAVOR]: build, boot and smoke-test a kernel of an arch that
# make check does not run ftracetest on (today: 32-bit arm, whose call sites
# our recordmcount records).  Prints ok/FAIL lines and writes the result
# files build/results/ARCH-FLAVOR-smoke{,-build} for check.py's total.
#
# Checks: the kernel builds (counted in build/results/ARCH-FLAVOR-smoke-build);
# the guest boots to the end with no oops, BUG, WARNING, panic, stall or
# lockup on the console; each KUnit case passes (those listed in
# expectations/kunit-known.ARCH are skips while they fail);
# available_filter_functions is non-empty and has no invalid entries; the
# function tracer writes trace lines; a one-function filter traces that
# function only; everything is off again afterwards (harness/guest/smoke.sh,
# a KTAP document judged by harness/check.py).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?ARCH}; flavor=${2:-ours}
check_arch "$arch"; check_flavor "$flavor"
name="$(kname "$arch" "$flavor")-smoke"
results="$build/results"
mkdir -p "$results" "$build/logs"
log="$build/logs/check-$name.log"
pass=0 failed=0 skipped=0

ok() { echo "ok   $name: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $name: $*"; failed=$((failed + 1)); }
finish() {
	printf 'passed %s\nfailed %s\nskipped %s\n' "$pass" "$failed" "$skipped" > "$results/$name-build"
	exit 0
}

start=$(date +%s)
klog="kernel-$(kname "$arch" "$flavor").log"
if ! "$top/harness/kernel.sh" "$arch" "$flavor" > "$build/logs/$klog" 2>&1; then
	tail -n 30 "$build/logs/$klog"
	bad "kernel build (log: build/logs/$klog)"; finish
fi
ok "kernel built in $(( $(date +%s) - start )) s"
"$top/harness/initramfs.sh" "$arch" "$flavor" > /dev/null || { bad initramfs; finish; }

start=$(date +%s)
KUNIT=1 TIMEOUT=${SMOKE_TIMEOUT:-900} "$top/harness/qemu.sh" "$arch" "$flavor" smoke \
	> /dev/null 2>&1
cp "$build/logs/$(kname "$arch" "$flavor")-smoke.log" "$log" 2>/dev/null || : > "$log"
echo "     $name: the guest ran $(( $(date +%s) - start )) s (console: build/logs/check-$name.log)"
# The boot's results (harness/check.py): it finished, a clean console,
# KUnit, and the KTAP document "smoke" of harness/guest/smoke.sh.
python3 "$top/harness/check.py" guest --name "$name" --what '' --doc smoke --kunit \
	--kunit-known "$expdir/kunit-known.$arch" --log "$log" --results "$results"
finish
