#!/usr/bin/env bash
# check-bpf.sh: BPF fentry/fexit programs through the BPF trampoline, on
# our kernel and on the unmodified one (make check-bpf).
#
# Both x86_64 kernels are built with VARIANT=btf (the distro config plus
# BTF, configs/variant-btf.config), booted, and run the project's BTF cases
# (harness/ftt-btf, with harness/guest/bpftramp.c as the loader).  Each
# case must pass on both kernels.  Not part of make check: BTF makes
# the x86_64 build longer than CI's time allows (README, "In-tree users").
# The last line is "N passed, N failed, N skipped".
set -uo pipefail
. "$(dirname "$0")/lib.sh"
export VARIANT=btf
results="$build/results-bpf"
rm -rf "$results"; mkdir -p "$results" "$build/logs"
cases=test.d/ftrace-core/bpf-trampoline.tc

"$top/harness/kernel.sh" unpack > "$build/logs/unpack.log" 2>&1 || tail "$build/logs/unpack.log"
for flavor in ours upstream; do
	name="x86_64-$flavor-btf"
	log="$build/logs/kernel-$name.log"
	echo "== $name: kernel (log: build/logs/kernel-$name.log)"
	start=$(date +%s)
	if ! "$top/harness/kernel.sh" x86_64 "$flavor" > "$log" 2>&1; then
		tail -n 30 "$log"
		echo "FAIL $name: kernel build"
		printf 'passed 0\nfailed 1\nskipped 0\n' > "$results/$name"
		continue
	fi
	echo "   built in $(( $(date +%s) - start )) s"
	"$top/harness/initramfs.sh" x86_64 "$flavor" || {
		printf 'passed 0\nfailed 1\nskipped 0\n' > "$results/$name"; continue; }
	echo "== $name: $cases"
	console="$build/logs/$name-bpf.log"
	TIMEOUT=900 APPEND=ftt_keep=1 "$top/harness/qemu.sh" x86_64 "$flavor" ftracetest "$cases" 2>&1 |
		grep --line-buffered -aE '^\[[0-9]+\].*\[[A-Z]+\]$|^(HARNESS|qemu):|^bpftramp' |
		sed -u 's/^/   | /'
	cp "$build/logs/x86_64-$flavor-btf-ftracetest.log" "$console" 2>/dev/null || : > "$console"
	python3 "$top/harness/check.py" judge --name "$name" --subset \
		--log "$console" --expect "$top/expectations/x86_64.txt" \
		--core-cases "$top/harness/ftt-btf" --results "$results"
done
python3 "$top/harness/check.py" total "$results"
