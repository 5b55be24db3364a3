#!/usr/bin/env bash
# ftt.sh ARCH FLAVOR CASES: build (a no-op when up to date) and boot one
# kernel, and run the named ftracetest cases in it (make ftt).  CASES is
# a comma-separated list of paths under ftracetest's directory
# (test.d/ftrace-core/ftrace-enabled-value.tc), a directory running all
# its cases.  Prints each case's result and the failed cases' logs; exits
# non-zero unless every case passed.  Console log:
# build/logs/ARCH-FLAVOR-ftt.log.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?ARCH}; flavor=${2:?FLAVOR}; cases=${3:-}
check_arch "$arch"; check_flavor "$flavor"
[ -n "$cases" ] || die "name the cases: make ftt ARCH=$arch CASES=test.d/ftrace-core/NAME.tc[,...]"
"$top/harness/kernel.sh" "$arch" "$flavor"
"$top/harness/initramfs.sh" "$arch" "$flavor"
log="$build/logs/$(kname "$arch" "$flavor")-ftt.log"
QEMU_LOG_NAME=ftt KUNIT=0 APPEND="ftt_functions=0 ftt_bench=0" TIMEOUT=${TIMEOUT:-1200} \
	"$top/harness/qemu.sh" "$arch" "$flavor" ftracetest "$cases" > /dev/null || true
# The guest prints the log of each case that did not pass as "FTTLOG| "
# lines, and the results as the KTAP document "ftracetest", which
# check.py ftt-cases lists.
sed -n 's/^FTTLOG| //p' "$log"
grep -h '^qemu: ran' "$log" || true
python3 "$top/harness/check.py" ftt-cases --log "$log" ||
	die "not every case passed (console log: $log)"
echo "ftt: console log: $log"
