#!/usr/bin/env bash
# lint.sh ARCH: sparse (Debian's) and W=1 on the core's and back ends' files, in the built
# ARCH-ours kernel (harness/kernel.sh ARCH ours first).  One result per
# file: a file passes when sparse prints no warning or error for it.
# The last line is "N passed, N failed, N skipped".
set -uo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?ARCH}
check_arch "$arch"
flavor=ours
src="$build/src/$flavor$base_suffix"
out=$(kdir "$arch" "$flavor")
[ -f "$out/.config" ] || die "no kernel built for $arch-$flavor (run harness/kernel.sh $arch ours)"
command -v sparse > /dev/null || die "sparse is not installed (make setup)"
# The core, and the back ends of ours (arch/*/kernel/ftrace*.c).
files=$(cd "$top" && ls kernel/trace/ftrace_*.c arch/*/kernel/ftrace*.c 2> /dev/null)
objs=$(for f in $files; do
	# Only what the config builds (e.g. no ftrace_direct.c on arm64).
	o=${f%.c}.o
	[ -f "$out/$o" ] && echo "$o"
done)
log=$(mktemp)
# C=2: check each named file whether or not it needs compiling; W=1:
# compile them again with the kernel's extra warnings, which fail the
# file like sparse's.
# Debian 12's sparse has no __has_include, by which <linux/ftrace_kbase.h>
# tells the bases apart: on 6.12 it is told (CF: sparse's flags only).
cf=
[ "$BASE" = 6.1 ] || cf=-DFTRACE_KBASE_612=1
toolchain
make -s -C "$src" O="$out" ARCH="$karch" "${tc[@]}" \
	C=2 CHECK=sparse CF="$cf" W=1 $objs > "$log" 2>&1
rc=$?
pass=0 fail=0
# sparse says nothing more about a file once it has met an error, in the
# file or in a header it includes: any error fails the run.
if grep -E '^[^ ]+:[0-9]+:[0-9]+: error:' "$log"; then
	echo "FAIL sparse $arch: errors (above) hide the rest of their files' warnings"
	fail=$((fail + 1))
fi
for o in $objs; do
	f=${o%.o}.c
	if grep -E "/$f:[0-9]+:[0-9]+: (warning|error):" "$log"; then
		echo "FAIL sparse $arch $f"; fail=$((fail + 1))
	else
		echo "ok   sparse $arch $f"; pass=$((pass + 1))
	fi
done
if [ $rc != 0 ]; then
	tail -n 20 "$log"; echo "FAIL sparse $arch: make exited $rc"; fail=$((fail + 1))
fi
rm -f "$log"
echo "$pass passed, $fail failed, 0 skipped"
[ $fail = 0 ]
