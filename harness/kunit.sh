#!/usr/bin/env bash
# kunit.sh ARCH: the core's KUnit suites through the kernel's own runner,
# tools/testing/kunit/kunit.py, with kernel/trace/.kunitconfig, as kernel
# developers run KUnit (make kunit).  kunit.py configures, builds (in
# build/kunit/ARCH, with ccache) and boots its own small kernel under QEMU,
# then parses the KTAP itself; its exit status is the result.  make check
# runs the same suites inside its own kernels (harness/check.sh); this is
# the other way in, so the .kunitconfig stays true.
# The last line is "N passed, N failed, N skipped".
set -uo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?ARCH}
check_arch "$arch"
case "$arch" in x86_64|arm64) ;; *) die "kunit.py runs here for x86_64 and arm64" ;; esac
src="$build/src/ours$base_suffix"
"$top/harness/kernel.sh" prepare > /dev/null || die "the ours tree did not prepare"
# A tree made afresh has old file times (hard links): start the build
# directory afresh too, as kernel.sh does its own.
out="$build/kunit/$arch$base_suffix"
if [ "$(cat "$out/.src-key" 2>/dev/null)" != "$(cat "$src.key")" ]; then
	rm -rf "$out"; mkdir -p "$out"; cp "$src.key" "$out/.src-key"
fi
log="$build/logs/kunit-$arch.log"
args=(run --kunitconfig=kernel/trace --arch="$arch" --build_dir="$out"
      --jobs="${JOBS:-2}" --timeout="${TIMEOUT:-900}")
[ -n "$cross" ] && args+=(--cross_compile="$cross")
args+=(--make_options "CC=ccache ${cross}gcc")
echo "kunit: $arch through tools/testing/kunit/kunit.py (log: build/logs/kunit-$arch.log)"
start=$(date +%s)
(cd "$src" && python3 tools/testing/kunit/kunit.py "${args[@]}") > "$log" 2>&1
rc=$?
# kunit.py's own summary: "Testing complete. Ran N tests: passed: N, ..."
summary=$(grep -E 'Testing complete\. Ran [0-9]+ tests' "$log" | tail -n 1)
n() { echo "$summary" | sed -n "s/.*$1: \([0-9]*\).*/\1/p"; }
passed=$(n passed) failed=$(n failed) skipped=$(n skipped)
passed=${passed:-0} failed=${failed:-0} skipped=${skipped:-0}
echo "kunit: $arch took $(( $(date +%s) - start )) s, exit $rc: ${summary:-no summary}"
grep -E '^\[[0-9:]+\] (=+ \[(PASSED|FAILED|SKIPPED)\] ftrace|\[FAILED\])' "$log" | sed 's/^/     /'
if [ $rc = 0 ] && [ -n "$summary" ] && [ "$failed" = 0 ] && [ "$passed" -gt 0 ] &&
	grep -qE '\[PASSED\] ftrace-plan' "$log"; then
	echo "ok   kunit.py $arch"
else
	tail -n 30 "$log"
	echo "FAIL kunit.py $arch (log: build/logs/kunit-$arch.log)"
	failed=$(( failed > 0 ? failed : 1 ))
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
