#!/usr/bin/env bash
# debug.sh ARCH [FLAVOR]: make debug.  FLAVOR (default ours) built with the
# kernel's checkers on (VARIANT=debug, configs/variant-debug.config: KASAN,
# lockdep with PROVE_RCU, DEBUG_ATOMIC_SLEEP, DEBUG_LIST), then:
#   1. one boot: the KUnit suites and ftracetest's test.d/ftrace and the
#      project's test.d/ftrace-core, judged as make check judges them
#      (upstream's expectations; any oops, WARN, BUG, lockdep or KASAN
#      line fails);
#   2. make stress at its debug size (a tenth of the short form) on the
#      same kernel.
# A debug kernel runs several times slower under TCG; the time each step
# took is printed.  The last line is "N passed, N failed, N skipped".
set -uo pipefail
. "$(dirname "$0")/lib.sh"
only_base_61
arch=${1:?ARCH}; flavor=${2:-ours}
check_arch "$arch"; check_flavor "$flavor-debug"
name=$(kname "$arch" "$flavor")
results="$build/results/debug-$name"
rm -rf "$results"; mkdir -p "$results" "$build/logs"

"$top/harness/kernel.sh" "$arch" "$flavor" || die "the kernel did not build"
"$top/harness/initramfs.sh" "$arch" "$flavor" > /dev/null || die "the initramfs did not build"

echo "== $name: KUnit and ftracetest test.d/ftrace, test.d/ftrace-core"
start=$(date +%s)
KUNIT=1 TIMEOUT=${FTT_TIMEOUT:-5400} "$top/harness/qemu.sh" "$arch" "$flavor" ftracetest \
	test.d/ftrace,test.d/ftrace-core > /dev/null 2>&1
echo "   guest ran $(( $(date +%s) - start )) s"
cp "$build/logs/$name-ftracetest.log" "$build/logs/debug-$name.log"
python3 "$top/harness/check.py" judge --name "$name" --kunit --subset \
	--log "$build/logs/debug-$name.log" --expect "$top/expectations/$arch.txt" \
	--core-cases "$top/harness/ftt" --results "$results" | grep -v '^ok ' | sed 's/^/   /'

echo "== $name: stress (debug size)"
start=$(date +%s)
STRESS_BUILT=1 TIMEOUT=${STRESS_TIMEOUT:-7200} "$top/harness/stress.sh" "$arch" "$flavor-debug" debug \
	> "$build/logs/debug-$name-stress.log" 2>&1
grep -vE '^ok ' "$build/logs/debug-$name-stress.log" | sed 's/^/   /'
echo "   stress ran $(( $(date +%s) - start )) s"
tail -n 1 "$build/logs/debug-$name-stress.log" |
	sed -E 's/^([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/passed \1\nfailed \2\nskipped \3/' \
	> "$results/stress"
grep -q '^passed' "$results/stress" || printf 'passed 0\nfailed 1\nskipped 0\n' > "$results/stress"

awk '{ n[$1] += $2 } END { printf "%d passed, %d failed, %d skipped\n", n["passed"], n["failed"], n["skipped"] }' \
	"$results"/*
awk '$1 == "failed" { f += $2 } END { exit f > 0 }' "$results"/*
