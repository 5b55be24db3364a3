#!/usr/bin/env bash
# check.sh [full]: everything `make check` runs, in order, never stopping at
# the first failure; the last line is "N passed, N failed, N skipped".
#
#   1. host tests (harness/tests, scripts/ tests when present), the
#      names of 6.1's ftrace.c that the tree uses (harness/symbols.py),
#      the spin models of the patch protocols (harness/model.sh) and the
#      patch series without its builds (harness/series-check.sh, QUICK=1)
#   2. per arch in ARCHES: build FLAVOR (default ours), run sparse on the
#      core's files (harness/lint.sh), boot it with KUnit on,
#      run ftracetest (the CI subset of ftt-subset.ARCH, or all with "full";
#      the project's cases in test.d/ftrace-core always), judge the console
#      log against expectations/ARCH.txt; then boot it once more with ftrace
#      boot parameters (harness=bootcheck) and judge its CHECK| lines;
#      the livepatch selftests where expected; make stress's short form
#      (ours only).
#   3. x86_64 without DYNAMIC_FTRACE (VARIANT=nodyn): build, boot once,
#      judge the CHECK| lines of harness/guest/nodyncheck.sh; x86_64 with
#      the frame-pointer unwinder (VARIANT=fp): build, boot once on one
#      vCPU with test.d/ftrace and the callers' cases.
#      x86_64 with a randomised base (VARIANT=kaslr): build, boot once
#      with KUnit and test.d/ftrace.
#   4. per arch in SMOKE_ARCHES (default arm): build, boot, smoke test.
#   5. the layers of the core (harness/layers.py) in every kernel of ours
#      built: no file refers to a file above it.
# All kernels build in the background from the start, in that order, at the
# lowest priority, while the steps run; each step waits for its own.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
full=${1:-}
# Kernel parameters of the boot-parameter check (core review, finding 9).
bootcheck_append='ftrace=function ftrace_filter=vfs_read,no_such_fn_xyz ftrace_notrace=no_such_fn_abc,vfs_write'
flavor=${FLAVOR:-ours}
results="$build/results"
rm -rf "$results"; mkdir -p "$results" "$build/logs"

# host_suite NAME CMD...: one host test command.  If its output ends with
# "N passed, N failed, N skipped" those are its counts; otherwise its exit
# status is one result.  A non-zero exit is always at least one failure.
host_suite() {
	local name=$1 log="$build/logs/host-$1.log" rc=0 p=1 f=0 s=0 last
	shift
	"$@" > "$log" 2>&1 || rc=$?
	last=$(tail -n 1 "$log")
	if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]]; then
		p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]} s=${BASH_REMATCH[3]}
	fi
	if [ $rc != 0 ] && [ "$f" = 0 ]; then p=0 f=1; fi
	if [ $rc = 0 ] && [ "$f" = 0 ]; then
		echo "ok   host: $name ($p passed, $s skipped)"
	else
		echo "FAIL host: $name (log: build/logs/host-$name.log)"
		tail -n 20 "$log" | sed 's/^/     | /'
	fi
	printf 'passed %s\nfailed %s\nskipped %s\n' "$p" "$f" "$s" > "$results/host-$name"
}

"$top/harness/kernel.sh" unpack > "$build/logs/unpack.log" 2>&1 || tail "$build/logs/unpack.log"

# Every kernel of the run is built in the background from the start, one
# after another at the lowest CPU priority: the builds take the CPU time
# that the host tests and the guests leave (an x86_64 guest runs in one
# host thread, so one core of two is otherwise idle), and each step below
# waits only for its own kernel (wait_kernel).  Logs as before:
# build/logs/kernel-NAME.log.
arches=${ARCHES:-x86_64 arm64}
bq="$build/buildq"
rm -rf "$bq"; mkdir -p "$bq"
specs=
for arch in $arches; do specs="$specs $arch:$arch-$flavor:"; done
[[ " $arches " == *" x86_64 "* ]] && specs="$specs x86_64:x86_64-$flavor-nodyn:nodyn x86_64:x86_64-$flavor-fp:fp x86_64:x86_64-$flavor-kaslr:kaslr"
for arch in ${SMOKE_ARCHES-arm}; do specs="$specs $arch:$arch-$flavor:"; done
(
	for spec in $specs; do
		IFS=: read -r arch name variant <<< "$spec"
		VARIANT=$variant nice -n 19 "$top/harness/kernel.sh" "$arch" "$flavor" \
			> "$build/logs/kernel-$name.log" 2>&1
		echo $? > "$bq/$name.rc.tmp" && mv "$bq/$name.rc.tmp" "$bq/$name.rc"
	done
) &
bq_pid=$!
# wait_kernel NAME: wait for the background build of NAME; true if it built.
wait_kernel() {
	while [ ! -f "$bq/$1.rc" ] && kill -0 "$bq_pid" 2>/dev/null; do sleep 5; done
	[ "$(cat "$bq/$1.rc" 2>/dev/null)" = 0 ]
}

# boot_guest TRIES NAME LOG PATTERN CMD...: run CMD (a harness/qemu.sh
# boot that logs its console to LOG), show the console lines that match
# PATTERN as they come, and copy LOG to build/logs/check-NAME.log (empty if
# QEMU wrote none, which the judge fails).  With TRIES=2 a guest that did
# not finish is booted once more: on x86_64, QEMU 7.2's TCG now and then
# livelocks while the kernel patches text (seen on the unmodified kernel
# too: a CPU trapping on the same int3 forever, then an RCU stall).  The
# first attempt stays visible as a skip with its log; a second failure is
# judged like any other run.
boot_guest() {
	local tries=$1 name=$2 log=$3 pattern=$4 try out
	shift 4
	out="$build/logs/check-$name.log"
	for try in $(seq "$tries"); do
		rm -f "$log"
		"$@" 2>&1 | grep --line-buffered -aE "$pattern" | sed -u 's/^/   | /'
		cp "$log" "$out" 2>/dev/null || : > "$out"
		grep -q '^HARNESS: done' "$out" && return
		[ "$try" = "$tries" ] && return
		mv "$out" "$build/logs/check-$name.try1.log"
		echo "skip $name: first boot did not finish; booting again (log: build/logs/check-$name.try1.log)"
		printf 'passed 0\nfailed 0\nskipped 1\n' > "$results/$name-try1"
	done
}

host_suite harness-check python3 -m unittest discover -s "$top/harness/tests" -v
# Every name of 6.1's ftrace.c that the rest of the tree uses is ours too.
host_suite ftrace-symbols python3 "$top/harness/symbols.py" "$base" "$top"
# The patch protocols, model-checked by spin (harness/model/, about a
# minute).
host_suite model "$top/harness/model.sh"
for t in "$top"/scripts/tests/run.sh; do
	[ -x "$t" ] && host_suite recordmcount "$t"
done
# The patch series (series/): every file placed, the last patch's tree the
# one built here, checkpatch --strict on every patch, maintainers and boot
# parameters (make series-check also applies it with git am and builds
# every step).
host_suite series env QUICK=1 "$top/harness/series-check.sh"

for arch in $arches; do
	name="$arch-$flavor"
	fail() { echo "FAIL $name: $1"; printf 'passed 0\nfailed 1\nskipped 0\n' > "$results/$name"; }
	echo "== $name: kernel"
	if ! wait_kernel "$name"; then
		tail -n 30 "$build/logs/kernel-$name.log"; fail "kernel build"; continue
	fi
	grep -E 'WARNING|built' "$build/logs/kernel-$name.log"
	# sparse on the core's files of this build (harness/lint.sh).
	[ "$flavor" = ours ] && host_suite "sparse-$arch" "$top/harness/lint.sh" "$arch"
	"$top/harness/initramfs.sh" "$arch" "$flavor" || { fail initramfs; continue; }
	subset=--subset ftt=
	if [ "$full" = full ]; then subset=
	else ftt=$(grep -v '^#' "$top/expectations/ftt-subset.$arch" 2>/dev/null | paste -sd, || true)
	     [ -n "$ftt" ] || subset=
	fi
	# The project's cases of the core (harness/ftt) always run.
	[ -n "$ftt" ] && ftt="$ftt,test.d/ftrace-core"
	echo "== $name: KUnit and ftracetest ${ftt:-(all cases)}"
	start=$(date +%s)
	# Progress: the guest's ftracetest result lines as they come.
	boot_guest 2 "$name" "$build/logs/$arch-$flavor-ftracetest.log" \
		'^\[[0-9]+\].*\[[A-Z]+\]$|^(HARNESS|qemu):' \
		env KUNIT=1 TIMEOUT="${TIMEOUT:-1200}" "$top/harness/qemu.sh" "$arch" "$flavor" ftracetest "$ftt"
	echo "   guest ran $(( $(date +%s) - start )) s; console: build/logs/check-$name.log"
	python3 "$top/harness/check.py" judge --name "$name" --kunit $subset \
		--log "$build/logs/check-$name.log" --expect "$top/expectations/$arch.txt" \
		--functions "$top/expectations/functions.$arch.txt" --bench-smoke \
		--core-cases "$top/harness/ftt" --results "$results"

	# One more short boot: what the ftrace boot parameters set up, with a
	# bad word in each list (harness/guest/bootcheck.sh).
	echo "== $name: boot parameters"
	boot_guest 1 "$name-bootcheck" "$build/logs/$arch-$flavor-bootcheck.log" \
		'^(CHECK\||HARNESS:|qemu:)' \
		env APPEND="$bootcheck_append" KUNIT=0 TIMEOUT="${BOOTCHECK_TIMEOUT:-600}" \
		"$top/harness/qemu.sh" "$arch" "$flavor" bootcheck
	python3 "$top/harness/check.py" bootcheck --name "$name-bootcheck" \
		--log "$build/logs/check-$name-bootcheck.log" --results "$results"

	# The kernel's selftests of in-tree ftrace users (livepatch), where
	# upstream's results were measured (expectations/kselftest.ARCH.txt).
	if [ -f "$top/expectations/kselftest.$arch.txt" ]; then
		echo "== $name: kselftests of in-tree users"
		start=$(date +%s)
		boot_guest 2 "$name-kselftest" "$build/logs/$arch-$flavor-kselftest.log" \
			'^(KST\||HARNESS:|qemu:)' \
			env KUNIT=0 TIMEOUT="${KSELFTEST_TIMEOUT:-900}" \
			"$top/harness/qemu.sh" "$arch" "$flavor" kselftest
		echo "   guest ran $(( $(date +%s) - start )) s"
		python3 "$top/harness/check.py" kselftest --name "$name-kselftest" \
			--log "$build/logs/check-$name-kselftest.log" \
			--expect "$top/expectations/kselftest.$arch.txt" --results "$results"
	fi

	# make stress's short form on our kernel: tracers, filters, instances
	# and modules churning under load, then malformed writes
	# (harness/stress.sh).  Upstream's baseline is in the README.
	if [ "$flavor" = ours ]; then
		echo "== $name: stress (short)"
		host_suite "stress-$name" env STRESS_BUILT=1 "$top/harness/stress.sh" "$arch" "$flavor" short
		grep -E '^(ok|FAIL|     stress|stress:)' "$build/logs/host-stress-$name.log" | sed 's/^/   /'
	fi
done
# The function tracer without dynamic ftrace (x86_64, VARIANT=nodyn): one
# build and one short boot (harness/guest/nodyncheck.sh).
if [[ " $arches " == *" x86_64 "* ]]; then
	name="x86_64-$flavor-nodyn"
	echo "== $name: kernel without DYNAMIC_FTRACE, and one boot"
	if wait_kernel "$name" &&
	   VARIANT=nodyn "$top/harness/initramfs.sh" x86_64 "$flavor" > /dev/null; then
		grep -E 'WARNING|built' "$build/logs/kernel-$name.log"
		boot_guest 1 "$name" "$build/logs/$name-nodyncheck.log" '^(CHECK\||HARNESS:|qemu:)' \
			env VARIANT=nodyn KUNIT=0 TIMEOUT="${BOOTCHECK_TIMEOUT:-600}" \
			"$top/harness/qemu.sh" x86_64 "$flavor" nodyncheck
		python3 "$top/harness/check.py" bootcheck --name "$name" --what "no dynamic ftrace" \
			--log "$build/logs/check-$name.log" --results "$results"
	else
		tail -n 30 "$build/logs/kernel-$name.log"
		echo "FAIL $name: kernel build (log: build/logs/kernel-$name.log)"
		printf 'passed 0\nfailed 1\nskipped 0\n' > "$results/$name"
	fi
fi
# The x86_64 callers with the frame-pointer unwinder instead of ORC
# (VARIANT=fp): one boot with the cases whose stack traces, registers and
# direct calls go through the callers' frame records (test.d/ftrace and
# the caller and direct-call cases of harness/ftt), judged against the
# same expectations.  Not the livepatch cases: without ORC, x86 has no
# reliable stack traces, so a patch transition waits on sleeping tasks.
# This guest has one vCPU, every other one two: the x86 back end's patch
# protocol then runs with the writing CPU alone, taking the INT3s of its
# own interrupts (issue 11 asks for both cases).
if [[ " $arches " == *" x86_64 "* ]]; then
	name="x86_64-$flavor-fp"
	echo "== $name: frame-pointer unwinder, stack and caller cases, one vCPU"
	fpcases=test.d/ftrace,test.d/ftrace-core/caller-regs.tc
	fpcases=$fpcases,test.d/ftrace-core/caller-unwind.tc,test.d/ftrace-core/direct-samples.tc
	if wait_kernel "$name" &&
	   VARIANT=fp "$top/harness/initramfs.sh" x86_64 "$flavor" > /dev/null; then
		grep -E 'WARNING|built' "$build/logs/kernel-$name.log"
		boot_guest 2 "$name" "$build/logs/$name-ftracetest.log" \
			'^\[[0-9]+\].*\[[A-Z]+\]$|^(HARNESS|qemu):' \
			env VARIANT=fp KUNIT=0 SMP=1 TIMEOUT="${TIMEOUT:-900}" \
			"$top/harness/qemu.sh" x86_64 "$flavor" ftracetest "$fpcases"
		python3 "$top/harness/check.py" judge --name "$name" --subset --nproc 1 \
			--log "$build/logs/check-$name.log" --expect "$top/expectations/x86_64.txt" \
			--results "$results"
	else
		tail -n 30 "$build/logs/kernel-$name.log"
		echo "FAIL $name: kernel build (log: build/logs/kernel-$name.log)"
		printf 'passed 0\nfailed 1\nskipped 0\n' > "$results/$name"
	fi
fi
# x86_64 relocatable with a randomised base (VARIANT=kaslr), as
# distributions ship it: the boot relocation rewrites the call-site table
# (recordmcount's cancelled entries become the offset), so one boot with
# KUnit and test.d/ftrace, judged as the others.
if [[ " $arches " == *" x86_64 "* ]]; then
	name="x86_64-$flavor-kaslr"
	echo "== $name: randomised kernel base, KUnit and test.d/ftrace"
	if wait_kernel "$name" &&
	   VARIANT=kaslr "$top/harness/initramfs.sh" x86_64 "$flavor" > /dev/null; then
		grep -E 'WARNING|built' "$build/logs/kernel-$name.log"
		boot_guest 2 "$name" "$build/logs/$name-ftracetest.log" \
			'^\[[0-9]+\].*\[[A-Z]+\]$|^(HARNESS|qemu):' \
			env VARIANT=kaslr KUNIT=1 TIMEOUT="${TIMEOUT:-900}" \
			"$top/harness/qemu.sh" x86_64 "$flavor" ftracetest test.d/ftrace
		python3 "$top/harness/check.py" judge --name "$name" --kunit --subset \
			--log "$build/logs/check-$name.log" --expect "$top/expectations/x86_64.txt" \
			--results "$results"
	else
		tail -n 30 "$build/logs/kernel-$name.log"
		echo "FAIL $name: kernel build (log: build/logs/kernel-$name.log)"
		printf 'passed 0\nfailed 1\nskipped 0\n' > "$results/$name"
	fi
fi
# Arches only built, booted and smoke-tested (harness/smoke.sh): 32-bit arm,
# whose call sites our recordmcount records.  SMOKE_ARCHES= skips them.
for arch in ${SMOKE_ARCHES-arm}; do
	echo "== $arch-$flavor: build, boot, smoke test"
	# smoke.sh runs kernel.sh itself, a no-op once the background build is done.
	wait_kernel "$arch-$flavor"
	"$top/harness/smoke.sh" "$arch" "$flavor"
done
wait "$bq_pid"
# The core's files only call down (the layer table of ftrace_core.h), in
# every kernel of ours this run built: one result per file and kernel.
if [ "$flavor" = ours ]; then
	kdirs=$(for spec in $specs; do
		IFS=: read -r arch name variant <<< "$spec"
		[ "$(cat "$bq/$name.rc" 2>/dev/null)" = 0 ] && echo "$build/kernel/$name"
	done)
	echo "== layers of the core"
	# shellcheck disable=SC2086
	host_suite layers python3 "$top/harness/layers.py" $kdirs
fi
python3 "$top/harness/check.py" total "$results"
