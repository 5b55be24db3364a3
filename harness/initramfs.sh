#!/usr/bin/env bash
# initramfs.sh ARCH FLAVOR: the guest's root file system, as a cpio archive.
#
# busybox (static, for the guest arch), the guest init, demo and bootcheck
# scripts, the kernel's modules, and ftracetest from the same source tree the
# kernel was built from, plus the project's cases of harness/ftt in
# test.d/ftrace-core/ (for every flavor; harness/ftt-btf too when the kernel
# has BTF).
# Output: build/initramfs/ARCH-FLAVOR.cpio
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?ARCH}; flavor=${2:?FLAVOR}
check_arch "$arch"; check_flavor "$flavor"

case "$arch" in x86_64) deb=amd64 ;; arm64) deb=arm64 ;; arm) deb=armhf ;; esac
if [ "$flavor" != upstream ]; then src="$build/src/$flavor"; else src="$base"; fi
out=$(kdir "$arch" "$flavor")
[ -d "$out/modroot" ] || die "no kernel built for $arch-$flavor (run harness/kernel.sh)"

root="$build/initramfs/$(kname "$arch" "$flavor").root"
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,root,lib,harness,usr/bin,usr/sbin}
install -m 755 "$build/setup/busybox-$deb" "$root/bin/busybox"
install -m 755 "$top/harness/guest/init" "$root/init"
install -m 755 "$top/harness/guest/demo.sh" "$root/harness/demo.sh"
install -m 755 "$top/harness/guest/smoke.sh" "$root/harness/smoke.sh"
[ -d "$top/harness/guest/extra" ] && cp -a "$top/harness/guest/extra/." "$root/harness/"
ln -s busybox "$root/bin/sh"
# ftbench, the in-guest benchmark (make bench; make check runs it once).
# (Not for arm, which has no static C library installed and is only smoke-tested.)
case "$arch" in x86_64) cc=gcc ;; arm64) cc=aarch64-linux-gnu-gcc ;; *) cc= ;; esac
if [ -n "$cc" ]; then
	mkdir -p "$build/bench"
	bench_bin="$build/bench/ftbench-$arch"
	if [ ! -x "$bench_bin" ] || [ "$top/harness/guest/ftbench.c" -nt "$bench_bin" ]; then
		$cc -static -O2 -Wall -Wextra -Werror -o "$bench_bin" "$top/harness/guest/ftbench.c"
	fi
	install -m 755 "$bench_bin" "$root/harness/ftbench"
	# bpftramp attaches BPF fentry/fexit programs (harness/ftt-btf).
	if grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$out/.config"; then
		bpf_bin="$build/bench/bpftramp-$arch"
		if [ ! -x "$bpf_bin" ] || [ "$top/harness/guest/bpftramp.c" -nt "$bpf_bin" ]; then
			$cc -static -O2 -Wall -Wextra -Werror -o "$bpf_bin" "$top/harness/guest/bpftramp.c"
		fi
		install -m 755 "$bpf_bin" "$root/harness/bpftramp"
	fi
fi
ex="$top/expectations/ftt-exclude.$arch"
[ -f "$ex" ] && install -m 644 "$ex" "$root/harness/ftt-exclude"
fl="$top/expectations/ftt-flaky"
[ -f "$fl" ] && install -m 644 "$fl" "$root/harness/ftt-flaky"
cp -a "$src/tools/testing/selftests/ftrace" "$root/ftrace"
# The project's regression cases of the core (harness/ftt), for both flavors:
# make check requires each of them to pass.
mkdir -p "$root/ftrace/test.d/ftrace-core"
install -m 644 "$top"/harness/ftt/*.tc "$root/ftrace/test.d/ftrace-core/"
# Cases that need BTF (BPF programs), for kernels built with it (VARIANT=btf).
if grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$out/.config"; then
	install -m 644 "$top"/harness/ftt-btf/*.tc "$root/ftrace/test.d/ftrace-core/"
fi
install -m 755 "$top/harness/guest/bootcheck.sh" "$root/harness/bootcheck.sh"
install -m 755 "$top/harness/guest/nodyncheck.sh" "$root/harness/nodyncheck.sh"
[ -d "$out/modroot/lib/modules" ] && cp -a "$out/modroot/lib/modules" "$root/lib/"
# Selftests of in-tree ftrace users (livepatch) and the userland they need.
"$top/harness/kselftest-root.sh" "$arch" "$src" "$out/modroot" "$root"
install -m 755 "$top/harness/guest/kselftest.sh" "$root/harness/kselftest.sh"
echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"

(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --quiet -o -0 -H newc -R 0:0 > "$root.cpio.tmp")
cpio="$build/initramfs/$(kname "$arch" "$flavor").cpio"
mv "$root.cpio.tmp" "$cpio"
rm -rf "$root"
echo "initramfs: $cpio ($(du -k "$cpio" | cut -f1) KiB)"
