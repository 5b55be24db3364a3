#!/usr/bin/env bash
# kselftest-root.sh ARCH SRC MODROOT ROOT [OUT]: put the kernel's own
# selftests of in-tree ftrace users (today tools/testing/selftests/livepatch)
# and the userland they need into the guest root ROOT.  initramfs.sh calls
# it; OUT is the kernel's build directory.
#
# A selftest directory goes in only when its test modules were built (the
# distro fragment, configs/distro-ARCH.config).  On 6.1 the kernel builds
# them (lib/livepatch, TEST_LIVEPATCH); from 6.10 on (BASE=6.12) they are
# the selftest's own test_modules/, built here against OUT when the kernel
# has LIVEPATCH, with its user program test_klp-call_getpid.  The livepatch scripts need
# bash, coreutils (mktemp --tmpdir, comm --nocheck-order, /bin/stat
# --format), diff --label, procps' sysctl --values and kmod's modprobe
# --dry-run and modinfo: busybox has none of these.  They are the build
# machine's own Debian binaries (bash, coreutils, diffutils, procps, kmod)
# with the shared libraries they load, so this works only when the build
# machine's Debian architecture is the guest's; otherwise the selftests are
# left out (and make check reports that).  They go to /opt/deb/bin, which
# only the guest's kselftest mode puts on PATH: ftracetest keeps busybox.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?ARCH}; src=${2:?SRC}; modroot=${3:?MODROOT}; root=${4:?ROOT}; out=${5:-}
case "$arch" in x86_64) deb=amd64 ;; arm64) deb=arm64 ;; *) deb=none ;; esac
lp="$src/tools/testing/selftests/livepatch"

dirs=
if find "$modroot" -name 'test_klp_livepatch.ko*' -print -quit 2>/dev/null | grep -q .; then
	dirs="$dirs livepatch"
elif [ -d "$lp/test_modules" ]; then
	if [ -n "$out" ] && grep -q '^CONFIG_LIVEPATCH=y' "$out/.config"; then
		dirs="$dirs livepatch"
	else
		echo "kselftest-root: no LIVEPATCH in this kernel: no livepatch selftests in the guest" >&2
	fi
fi
[ -n "$dirs" ] || exit 0
if [ "$(dpkg --print-architecture)" != "$deb" ]; then
	echo "kselftest-root: the build machine is not $deb: no selftests of in-tree users in the guest" >&2
	exit 0
fi

# The binaries, and every shared library they load (and the loader), at
# the paths they have on the build machine.
bins="/usr/bin/bash /usr/bin/mktemp /usr/bin/comm /usr/bin/stat /usr/bin/diff
      /usr/sbin/sysctl /usr/bin/kmod"
# 6.12's scripts stamp each test with date --rfc-3339=ns, which busybox's
# date does not know, and test-syscall.sh counts CPUs with getconf, which
# busybox lacks.
if grep -q 'date --rfc-3339' "$lp/functions.sh" 2>/dev/null; then bins="$bins /usr/bin/date"; fi
if grep -q 'getconf' "$lp"/*.sh 2>/dev/null; then bins="$bins /usr/bin/getconf"; fi
mkdir -p "$root/opt/deb/bin"
for b in $bins; do
	install -m 755 "$(readlink -f "$b")" "$root/opt/deb/bin/$(basename "$b")"
done
for l in modprobe modinfo rmmod insmod lsmod depmod; do ln -sf kmod "$root/opt/deb/bin/$l"; done
for lib in $(ldd $bins | grep -o '/[^ ]*\.so[^ ]*' | sort -u); do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done

mkdir -p "$root/kselftest"
for d in $dirs; do
	cp -a "$src/tools/testing/selftests/$d" "$root/kselftest/$d"
	# The scripts to run, in the order of the Makefile's TEST_PROGS.
	sed -n '/^TEST_PROGS[ :]*=/,/^$/p' "$src/tools/testing/selftests/$d/Makefile" |
		grep -o '[A-Za-z0-9_.-]*\.sh' > "$root/kselftest/$d/tests"
done
# The livepatch test modules and user program of a tree that leaves them
# to the selftest (6.10 and later), built for this kernel as the
# selftest's Makefile would, outside the source tree.  The scripts check
# only that a KDIR exists (harness/guest/kselftest.sh sets one).
if [ -d "$root/kselftest/livepatch/test_modules" ]; then
	check_arch "$arch"
	mdir="$build/modules/$(basename "$out")/livepatch"
	rm -rf "$mdir"; mkdir -p "$mdir"
	cp "$lp"/test_modules/* "$mdir/"
	toolchain
	make -s -C "$src" O="$out" ARCH="$karch" "${tc[@]}" M="$mdir" modules \
		> "$mdir/build.log" 2>&1 || { cat "$mdir/build.log"; die "livepatch test modules did not build"; }
	install -m 644 "$mdir"/*.ko "$root/kselftest/livepatch/test_modules/"
	"${cross}gcc" -static -O2 -o "$root/kselftest/livepatch/test_klp-call_getpid" "$lp/test_klp-call_getpid.c"
fi
echo "kselftest-root: $dirs" >&2
