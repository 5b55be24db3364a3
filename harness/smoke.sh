#!/usr/bin/env bash
# smoke.sh ARCH [FLAVOR]: build, boot and smoke-test a kernel of an arch that
# make check does not run ftracetest on (today: 32-bit arm, whose call sites
# our recordmcount records).  Prints ok/FAIL lines and writes the result
# file build/results/ARCH-FLAVOR-smoke for check.py's total.
#
# Checks: the kernel builds; the guest boots to the end with no oops, BUG,
# WARNING, panic, stall or lockup on the console; KUnit suites (the core's
# included) pass; available_filter_functions is non-empty and has no
# invalid entries; the function tracer writes trace lines; a one-function
# filter traces that function only; everything is off again afterwards.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?ARCH}; flavor=${2:-ours}
check_arch "$arch"; check_flavor "$flavor"
name="$arch-$flavor-smoke"
results="$build/results"
mkdir -p "$results" "$build/logs"
log="$build/logs/check-$name.log"
pass=0 failed=0 skipped=0

ok() { echo "ok   $name: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $name: $*"; failed=$((failed + 1)); }
finish() {
	printf 'passed %s\nfailed %s\nskipped %s\n' "$pass" "$failed" "$skipped" > "$results/$name"
	exit 0
}

start=$(date +%s)
if ! "$top/harness/kernel.sh" "$arch" "$flavor" > "$build/logs/kernel-$arch-$flavor.log" 2>&1; then
	tail -n 30 "$build/logs/kernel-$arch-$flavor.log"
	bad "kernel build (log: build/logs/kernel-$arch-$flavor.log)"; finish
fi
ok "kernel built in $(( $(date +%s) - start )) s"
"$top/harness/initramfs.sh" "$arch" "$flavor" > /dev/null || { bad initramfs; finish; }

start=$(date +%s)
KUNIT=1 TIMEOUT=${SMOKE_TIMEOUT:-900} "$top/harness/qemu.sh" "$arch" "$flavor" smoke \
	> /dev/null 2>&1
cp "$build/logs/$arch-$flavor-smoke.log" "$log" 2>/dev/null || : > "$log"
secs=$(( $(date +%s) - start ))
if grep -q '^HARNESS: done' "$log"; then
	ok "booted and finished in $secs s (console: build/logs/check-$name.log)"
else
	bad "the guest did not finish in $secs s (console: build/logs/check-$name.log)"; finish
fi
if grep -aqE 'Oops|BUG:|WARNING:|Kernel panic|rcu_.*stall|lockup' "$log"; then
	bad "console problems: $(grep -aE 'Oops|BUG:|WARNING:|Kernel panic|stall|lockup' "$log" | head -n 3 | tr '\n' ' ')"
else
	ok "console clean"
fi
# KUnit: every case must be "ok", except those listed in
# expectations/kunit-known.ARCH, which are skips while they fail.
known="$top/expectations/kunit-known.$arch"
suite= kt_ok=0 kt_bad=
while IFS= read -r line; do
	case "$line" in
	*"# Subtest: "*) suite=${line##*# Subtest: } ;;
	*"    ok "[0-9]*) kt_ok=$((kt_ok + 1)) ;;
	*"    not ok "[0-9]*)
		case "$line" in *"# SKIP"*) continue ;; esac
		kt_bad="$kt_bad $suite.$(echo "${line##*not ok }" | awk '{print $2}')" ;;
	esac
done < <(sed -E 's/^\[ *[0-9.]+\] //' "$log" | grep -aE '^    (# Subtest|(not )?ok [0-9]+ )')
for c in $kt_bad; do
	why=$(grep -v '^#' "$known" 2>/dev/null | awk -v c="$c" '$1 == c { $1 = ""; print; exit }')
	if [ -n "$why" ]; then
		echo "skip $name: KUnit $c fails, known:$why"; skipped=$((skipped + 1))
	else
		bad "KUnit $c"
	fi
done
grep -v '^#' "$known" 2>/dev/null | while read -r c _; do
	case " $kt_bad " in *" $c "*) ;; *) [ -n "$c" ] && echo "FAIL $name: KUnit $c passes now: drop it from expectations/kunit-known.$arch" ;; esac
done | grep . && failed=$((failed + 1))
[ "$kt_ok" -gt 0 ] && ok "KUnit: $kt_ok cases ok"
[ "$kt_ok" -gt 0 ] || bad "KUnit: no case ran"

val() { grep -a "^SMOKE| $1 " "$log" | head -n 1 | awk '{print $3}'; }
n=$(val functions); inv=$(val invalid); lines=$(val trace_lines)
fl=$(val filtered_lines); fo=$(val filtered_other); fe=$(val filter_enabled)
off=$(val after_off)
[ "${n:-0}" -gt 0 ] && [ "${inv:-1}" = 0 ] &&
	ok "available_filter_functions: $n functions, none invalid" ||
	bad "available_filter_functions: ${n:-?} functions, ${inv:-?} invalid"
[ "${lines:-0}" -gt 0 ] && ok "function tracer: $lines trace lines" ||
	bad "function tracer: ${lines:-no} trace lines"
[ "${fl:-0}" -gt 0 ] && [ "${fo:-1}" = 0 ] && [ "${fe:-0}" = 1 ] &&
	ok "filter vfs_read: $fl lines, no other function, 1 site enabled" ||
	bad "filter vfs_read: ${fl:-?} lines, ${fo:-?} others, ${fe:-?} sites enabled"
[ "${off:-1}" = 0 ] && ok "tracer off: no site enabled" ||
	bad "tracer off: ${off:-?} sites still enabled"
finish
