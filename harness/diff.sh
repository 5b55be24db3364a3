#!/usr/bin/env bash
# diff.sh ARCH [both|ours|expect]: the differential battery
# (harness/guest/diff.sh, guest mode harness=diff), judged by harness/diff.py.
#
#   both    (default; make diff) boot ours and the unmodified kernel, compare
#           them with each other (ARCH-diff-live) and ours with the recorded
#           expectations/diff.ARCH.txt (ARCH-ours-diff)
#   ours    boot ours only and compare it with the recorded file: the one
#           step make check runs (RESULTS=build/results puts its counts with
#           the others)
#   expect  boot the unmodified kernel and record expectations/diff.ARCH.txt
#           (make diff-expect)
# DIFF_BUILT=1 boots the kernels and images as they are (make check has
# built them).  Known differences: expectations/diff-known.txt.  Console logs:
# build/logs/ARCH-FLAVOR-diff.log (DIFF_LOG_NAME renames them).  Without
# RESULTS the counts go to build/results-diff/ARCH and the last line is
# their sum.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
only_base_61
arch=${1:?ARCH}; what=${2:-both}
check_arch "$arch"
case "$what" in both|ours|expect) ;; *) die "what must be both, ours or expect, not '$what'" ;; esac
recorded="$top/expectations/diff.$arch.txt"
known="$top/expectations/diff-known.txt"
name=${DIFF_LOG_NAME:-diff}
if [ -n "${RESULTS:-}" ]; then
	results=$RESULTS own_results=0
else
	results="$build/results-diff/$arch" own_results=1
	rm -rf "$results"
fi
mkdir -p "$results"

# boot FLAVOR: build (a no-op when up to date) and run the battery; print
# the console log's path.  A guest that does not finish still has a log,
# which the comparison judges.
boot() {
	local flavor=$1
	if [ "${DIFF_BUILT:-0}" != 1 ]; then
		"$top/harness/kernel.sh" "$arch" "$flavor" >&2
		"$top/harness/initramfs.sh" "$arch" "$flavor" >&2
	fi
	QEMU_LOG_NAME=$name KUNIT=0 TIMEOUT=${TIMEOUT:-900} \
		"$top/harness/qemu.sh" "$arch" "$flavor" diff > /dev/null || true
	echo "$build/logs/$(kname "$arch" "$flavor")-$name.log"
}

rc=0
case "$what" in
expect)
	log=$(boot upstream)
	python3 "$top/harness/diff.py" expect --log "$log" --out "$recorded" \
		--arch "$arch" --base "$(make -s -C "$base" kernelversion)"
	exit 0
	;;
both)
	ours=$(boot ours)
	stock=$(boot upstream)
	python3 "$top/harness/diff.py" compare --ours "$ours" --stock "$stock" \
		--known "$known" --arch "$arch" --name "$arch-diff-live" --results "$results" || rc=1
	;;
ours)
	ours=$(boot ours)
	;;
esac
[ -f "$recorded" ] || die "no $recorded (make diff-expect ARCH=$arch records it)"
python3 "$top/harness/diff.py" compare --ours "$ours" --stock "$recorded" \
	--known "$known" --arch "$arch" --name "$arch-ours-diff" --results "$results" || rc=1
grep -h '^qemu: ran' "$build/logs/$(kname "$arch" ours)-$name.log" | sed "s/^qemu:/$arch-ours diff guest:/" || true
if [ $own_results = 1 ]; then
	python3 "$top/harness/check.py" total "$results" || rc=1
fi
exit $rc
