#!/usr/bin/env bash
# expectations.sh ARCH: run every ftracetest case on the unmodified kernel and
# record the results as expectations/ARCH.txt, with date, base and run time,
# and its available_filter_functions at boot as expectations/functions.ARCH.txt.
# With BASE=6.12 (harness/lib.sh) the kernel is stock 6.12 and the files go
# to expectations/6.12/ instead.  With VARIANT=NAME (VARIANT=clang) the
# kernel is that variant and the files are named ARCH-NAME.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?ARCH}; check_arch "$arch"
"$top/harness/kernel.sh" "$arch" upstream
"$top/harness/initramfs.sh" "$arch" upstream
name=$(kname "$arch" upstream)
# The files' name: the arch, and the variant if any.
out=$arch${VARIANT:+-$VARIANT}
mkdir -p "$expdir"
start=$(date +%s)
TIMEOUT=${TIMEOUT:-3600} "$top/harness/qemu.sh" "$arch" upstream ftracetest > /dev/null
log="$build/logs/$name-ftracetest.log"
secs=$(( $(date +%s) - start ))
echo "expectations: the guest ran $secs s"
python3 "$top/harness/check.py" expect --log "$log" --out "$expdir/$out.txt" \
	--arch "$arch" --base "$(make -s -C "$base" kernelversion)" --seconds "$secs"
python3 "$top/harness/check.py" functions --log "$log" --arch "$arch" \
	--out "$expdir/functions.$out.txt" --base "$(make -s -C "$base" kernelversion)"
# The selftests of in-tree ftrace users, where the initramfs has them
# (harness/kselftest-root.sh): expectations/kselftest.ARCH.txt.
# (grep without -q: under pipefail an early exit would fail cpio with SIGPIPE.)
if cpio -it --quiet < "$build/initramfs/$name.cpio" |
   grep -E '^(\./)?kselftest/.*/tests$' > /dev/null; then
	start=$(date +%s)
	KUNIT=0 TIMEOUT=${KSELFTEST_TIMEOUT:-900} "$top/harness/qemu.sh" "$arch" upstream kselftest > /dev/null
	secs=$(( $(date +%s) - start ))
	echo "expectations: the kselftest guest ran $secs s"
	python3 "$top/harness/check.py" kselftest-expect --log "$build/logs/$name-kselftest.log" \
		--out "$expdir/kselftest.$out.txt" --arch "$arch" \
		--base "$(make -s -C "$base" kernelversion)" --seconds "$secs"
fi
