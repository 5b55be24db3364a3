#!/usr/bin/env bash
# check-bpf.sh: BPF fentry/fexit programs through the BPF trampoline, on
# our kernel and on the unmodified one (make check-bpf).
#
# The kernels are built with VARIANT=btf (the distro config plus BTF,
# configs/variant-btf.config), booted, and run the project's BTF cases
# (harness/ftt-btf, with harness/guest/bpftramp.c as the loader).  Each
# case must pass on each kernel.  KERNELS="x86_64:ours ..." picks the
# kernels; by default, on BASE=6.1: x86_64 ours and 6.1, arm64 ours (6.1's
# arm64 is not run: it has no direct calls, so its BPF trampolines cannot
# attach to kernel functions at all); on BASE=6.12: ours and stock 6.12 on
# both arches (6.12's arm64 has direct calls, through
# DYNAMIC_FTRACE_WITH_CALL_OPS).  Names and logs are kname's
# (x86_64-ours-btf-6.12), the expectations the base's ($expdir).
# Not part of make check: BTF makes the builds longer than CI's time allows
# (docs/testing.md, "In-tree users").
# The last line is "N passed, N failed, N skipped".
set -uo pipefail
. "$(dirname "$0")/lib.sh"
export VARIANT=btf
results="$build/results-bpf$base_suffix"
rm -rf "$results"; mkdir -p "$results" "$build/logs"
cases=test.d/ftrace-core/bpf-trampoline.tc

"$top/harness/kernel.sh" unpack > "$build/logs/unpack-$BASE.log" 2>&1 ||
	tail "$build/logs/unpack-$BASE.log"
if [ "$BASE" = 6.1 ]; then
	kernels="x86_64:ours x86_64:upstream arm64:ours"
else
	kernels="x86_64:ours x86_64:upstream arm64:ours arm64:upstream"
fi
for spec in ${KERNELS:-$kernels}; do
	arch=${spec%%:*} flavor=${spec#*:}
	name=$(kname "$arch" "$flavor")
	log="$build/logs/kernel-$name.log"
	echo "== $name: kernel (log: build/logs/kernel-$name.log)"
	start=$(date +%s)
	if ! "$top/harness/kernel.sh" "$arch" "$flavor" > "$log" 2>&1; then
		tail -n 30 "$log"
		echo "FAIL $name: kernel build"
		printf 'passed 0\nfailed 1\nskipped 0\n' > "$results/$name"
		continue
	fi
	echo "   built in $(( $(date +%s) - start )) s"
	"$top/harness/initramfs.sh" "$arch" "$flavor" || {
		printf 'passed 0\nfailed 1\nskipped 0\n' > "$results/$name"; continue; }
	echo "== $name: $cases"
	console="$build/logs/$name-bpf.log"
	# The loader's counts come in the case's kept log (FTTLOG| lines).
	TIMEOUT=900 APPEND=ftt_keep=1 "$top/harness/qemu.sh" "$arch" "$flavor" ftracetest "$cases" 2>&1 |
		grep --line-buffered -aE '^\[[0-9]+\].*\[[A-Z]+\]$|^(HARNESS|qemu):|^(FTTLOG\| )?bpftramp:' |
		sed -u -e 's/^FTTLOG| //' -e 's/^/   | /'
	cp "$build/logs/$name-ftracetest.log" "$console" 2>/dev/null || : > "$console"
	grep -h '^qemu: ran' "$console" | sed 's/^/   | /'
	python3 "$top/harness/check.py" judge --name "$name" --subset \
		--log "$console" --expect "$expdir/$arch.txt" \
		--core-cases "$top/harness/ftt-btf" --results "$results"
done
python3 "$top/harness/check.py" total "$results"
