#!/usr/bin/env bash
# check-tools.sh: the tools people trace with (bpftrace, bcc, bpftool,
# cyclictest, stress-ng: harness/guest/tools.sh) on our kernel and on the unmodified
# one of BASE, both arches (make check-tools).
#
# Each kernel is built (kernel.sh), gets the initramfs with the tools
# (tools-initramfs.sh) and boots under -icount shift=0,sleep=off with one
# vCPU, as make bench does (two take turns in an order that varies), so
# that the guest's clock counts instructions, then again for cyclictest
# alone (tools_only=cyclictest), with one vCPU and, on arm64, with two;
# make check's short run has two vCPUs.  Every result of the guest's KTAP
# document "tools" must pass on ours; the unmodified kernel's are shown
# as a reference, not counted (stock 6.1 x86_64 leaves 3 of 867 functions
# of a kprobe_multi wildcard unattached; docs/testing.md).  The timed
# steps ("TOOLS| NAME SECONDS") go side by side in a table, ours against
# the unmodified kernel (build/tools-times/table.txt).
# KERNELS="x86_64:ours ..." picks the kernels (default: ours and upstream
# on x86_64 and arm64); CYCLICTEST_ONLY=1 boots them for cyclictest
# alone, CYCLICTEST_APPEND adds to those boots' kernel command line.
# make check runs the short form on ours alone (harness/check.sh).
# The last line is "N passed, N failed, N skipped".
set -uo pipefail
. "$(dirname "$0")/lib.sh"
results="$build/results-tools$base_suffix" times="$build/tools-times$base_suffix"
rm -rf "$results" "$times"; mkdir -p "$results" "$times" "$build/logs"

"$top/harness/kernel.sh" unpack > "$build/logs/unpack-$BASE.log" 2>&1 ||
	tail "$build/logs/unpack-$BASE.log"
for spec in ${KERNELS:-x86_64:ours x86_64:upstream arm64:ours arm64:upstream}; do
	arch=${spec%%:*} flavor=${spec#*:}
	name=$(kname "$arch" "$flavor")
	log="$build/logs/kernel-$name.log"
	echo "== $name: kernel (log: build/logs/kernel-$name.log)"
	if ! "$top/harness/kernel.sh" "$arch" "$flavor" > "$log" 2>&1 ||
	   ! "$top/harness/initramfs.sh" "$arch" "$flavor" > /dev/null ||
	   ! "$top/harness/tools-initramfs.sh" "$arch" "$flavor" > /dev/null; then
		tail -n 30 "$log"
		echo "FAIL $name: kernel or initramfs"
		printf 'passed 0\nfailed 1\nskipped 0\n' > "$results/$name"
		continue
	fi
	# The unmodified kernel's results are a reference, not counted: ours
	# must pass every check, stock is shown against it.
	dir=$results
	[ "$flavor" = upstream ] && dir=$times/reference
	mkdir -p "$dir"
	: > "$times/$name"
	if [ "${CYCLICTEST_ONLY:-0}" = 0 ]; then
		echo "== $name: tools (under icount)"
		console="$build/logs/$name-tools.log"
		SMP=${SMP:-1} ICOUNT=1 TOOLS=1 TIMEOUT=1800 "$top/harness/qemu.sh" "$arch" "$flavor" tools > /dev/null 2>&1
		grep -a '^qemu: ran' "$console" | sed 's/^/   | /'
		sed -n 's/^TOOLS| //p' "$console" > "$times/$name"
		python3 "$top/harness/check.py" guest --name "$name-tools" --log "$console" \
			--doc tools --what tools --results "$dir" | sed 's/^/   /'
	fi
	# cyclictest under tracer toggles in boots of its own, still under
	# icount: with one vCPU, and on arm64 with two (a thread on each).
	# Under icount TCG runs two vCPUs in turn on one host thread.  There,
	# with nothing toggling (cyclictest_toggles=0), both kernels' maxima
	# stay under 0.1 ms; under the toggles they spread from about 0.6 to
	# 2.3 ms on either, and from 0.05 to 0.5 ms with one vCPU, so each
	# boot takes twenty runs (harness/guest/tools.sh; with five, the two
	# kernels' highest swapped places from one boot to the next).  An
	# x86_64 guest with two vCPUs under icount does not get past bringing
	# up the second CPU (QEMU 7.2, either kernel).  Stock x86_64's twenty
	# runs took 1,576 s with the host busy, hence the timeout.
	# CYCLICTEST_APPEND adds to these boots' command line (as
	# cyclictest_toggles=0 cyclictest_rounds=10).
	cpu_counts="1 2"
	[ "$arch" = x86_64 ] && cpu_counts=1
	for cpus in $cpu_counts; do
		echo "== $name: cyclictest under tracer toggles ($cpus vCPU, icount)"
		console="$build/logs/$name-tools-cyclictest-$cpus.log"
		SMP=$cpus ICOUNT=1 TOOLS=1 TIMEOUT=4800 \
			APPEND="tools_only=cyclictest${CYCLICTEST_APPEND:+ $CYCLICTEST_APPEND}" \
			QEMU_LOG_NAME=tools-cyclictest-$cpus \
			"$top/harness/qemu.sh" "$arch" "$flavor" tools > /dev/null 2>&1
		grep -a '^qemu: ran' "$console" | sed 's/^/   | /'
		sed -n "s/^TOOLS| \(cyclictest-[a-z-]*\) /\1-${cpus}cpu /p" "$console" >> "$times/$name"
		grep -a 'cyclictest run\|cyclictest maxima' "$console" | sed 's/^ *#/   |/'
		python3 "$top/harness/check.py" guest --name "$name-tools-cyclictest-$cpus" --log "$console" \
			--doc tools --what "cyclictest under toggles, $cpus vCPU" --results "$dir" | sed 's/^/   /'
	done
done

# Ours against the unmodified kernel, per arch: each timed step's seconds
# of guest time (instructions under icount) and their ratio.
{
	echo "step                                   arch       ours  unmodified   ratio"
	for arch in x86_64 arm64; do
		o="$times/$(kname "$arch" ours)" u="$times/$(kname "$arch" upstream)"
		if [ ! -f "$o" ] || [ ! -f "$u" ]; then continue; fi
		awk -v arch="$arch" 'NR == FNR { u[$1] = $2; next }
			($1 in u) { printf "%-38s %-7s %7s %11s %7s\n", $1, arch, $2, u[$1],
				(u[$1] > 0 ? sprintf("%.2fx", $2 / u[$1]) : "-") }' "$u" "$o"
	done
} > "$times/table.txt"
cat "$times/table.txt"
if [ -d "$times/reference" ]; then
	echo "the unmodified kernels (a reference, not counted): $(python3 "$top/harness/check.py" total "$times/reference" | tail -n 1)"
fi
python3 "$top/harness/check.py" total "$results"
