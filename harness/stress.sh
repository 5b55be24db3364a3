#!/usr/bin/env bash
# stress.sh ARCH FLAVOR [short|full|debug]: make stress.  Builds ARCH-FLAVOR
# (and its initramfs), boots it on 2 vCPUs with harness=stress and judges the
# guest's report (harness/guest/stress.sh): one result per job, a job
# passing when it counted no error; the kernel log must hold no splat.
# "short" (make check) takes a few minutes per kernel; "full" is the
# issue's size (1,000 tracer cycles, 200 module cycles, 100,000 malformed
# writes); "debug" a tenth of short, for make debug's KASAN and lockdep
# kernels, on which short did not finish 10 tracer cycles in 20 minutes.
# APPEND=stress_jobs=modules,fuzz (say) runs only those jobs.
# The guest's report is kept in build/stress/KERNEL-SIZE.txt (not under
# build/results, whose files are make check's counts).  The guest reports
# in KTAP (the document "stress"); check.py judges it.
# The last line is "N passed, N failed, N skipped".
set -uo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?ARCH}; flavor=${2:?FLAVOR}; size=${3:-short}
check_arch "$arch"; check_flavor "$flavor"
case "$size" in
short) timeout=${TIMEOUT:-1200} ;;
full) timeout=${TIMEOUT:-14400} ;;
debug) timeout=${TIMEOUT:-7200} ;;
*) die "size must be short, full or debug, not '$size'" ;;
esac
# STRESS_BUILT=1 (make check): the kernel and initramfs are already built.
if [ "${STRESS_BUILT:-0}" != 1 ]; then
	"$top/harness/kernel.sh" "$arch" "$flavor" || die "the kernel did not build"
	"$top/harness/initramfs.sh" "$arch" "$flavor" > /dev/null || die "the initramfs did not build"
fi
name=$(kname "$arch" "$flavor")
log="$build/logs/$name-stress.log"
mkdir -p "$build/stress"
res="$build/stress/$name-$size.txt"
start=$(date +%s)
APPEND="stress=$size stress_seed=${SEED:-1} ${APPEND:-}" TIMEOUT=$timeout \
	"$top/harness/qemu.sh" "$arch" "$flavor" stress > /dev/null
took=$(( $(date +%s) - start ))
# The report: the guest's KTAP document "stress" and its progress lines.
grep -E '^(HARNESS|STRESS|KTAP version|# harness:|1\.\.|(not )?ok |    )' "$log" > "$res"
echo "host: $name $size took $took s" >> "$res"
grep -q '^HARNESS: done' "$log" || { echo "stress $name: the guest did not finish (see $log)"; tail -n 30 "$log"; }
sed -n "s/^    # \(modules-traced .*\|total seconds=.*\)$/     stress $name \1/p" "$log"
echo "stress: $name $size in $took s; report in $res"
# One result per job (harness/check.py); the last line is the counts.
python3 "$top/harness/check.py" guest --name stress --what "$name" --doc stress \
	--no-console --summary --log "$log"
