#!/usr/bin/env bash
# tools-initramfs.sh ARCH FLAVOR: the guest's initramfs with the tools people
# trace with (bpftrace, bcc, bpftool, cyclictest, stress-ng: clients-root.sh's
# set "tools"), the kernel's headers for bcc and their guest script
# (harness/guest/tools.sh), perf's shell tests that put probes and the
# kernel's debug info they need, for harness=tools boots (qemu.sh with
# TOOLS=1).
# It is the kernel's own initramfs (initramfs.sh) with a second cpio
# archive after it, which the kernel unpacks over the first: 330 to 380
# MiB, most of it LLVM and clang for bpftrace and bcc, so only tools boots
# carry it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?ARCH}; flavor=${2:?FLAVOR}
check_arch "$arch"; check_flavor "$flavor"
name=$(kname "$arch" "$flavor")
base_cpio="$build/initramfs/$name.cpio"
[ -f "$base_cpio" ] || die "no initramfs at $base_cpio (harness/initramfs.sh)"
root=$(mktemp -d "$build/initramfs/$name-tools.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/harness"
install -m 755 "$top/harness/guest/tools.sh" "$root/harness/tools.sh"
"$top/harness/clients-root.sh" "$arch" "$root" tools
# The kernel's headers, which bcc compiles its programs against when a tool
# starts, as a Debian system has them from linux-headers: the source tree's
# include/ and arch/ARCH/include with the build's generated headers, one
# tree, compressed (about 10 MiB); tools.sh unpacks it where bcc looks
# (/lib/modules/RELEASE/build) before bcc's first run.
kout=$(kdir "$arch" "$flavor")
ksrc=$(readlink -f "$kout/source")
hdir=$karch
[ "$karch" = x86_64 ] && hdir=x86
tar -c -C "$ksrc" include "arch/$hdir/include" \
	-C "$kout" include/generated "arch/$hdir/include/generated" |
	gzip -6 > "$root/harness/kheaders.tar.gz"
# perf's own shell tests that put probes (perf test "vfs_getname": a
# kprobe by source line, recorded, scripted and traced), with the lines
# they source, from the perf of the guest's Debian arch.  They find the
# line in the kernel's DWARF, which VARIANT=btf kernels have: the debug
# sections alone, compressed (56 to 68 MiB), where perf looks for a
# kernel's debug info; without DWARF the tests skip, as they say.
ptests=/usr/lib/perf-core/tests/shell
[ "$karch" = arm64 ] && [ "$(dpkg --print-architecture)" != arm64 ] &&
	ptests="$build/setup/clients-arm64$ptests"
if [ -d "$ptests" ]; then
	mkdir -p "$root/usr/lib/perf-core/tests/shell/lib"
	for t in probe_vfs_getname.sh record+script_probe_vfs_getname.sh \
		trace+probe_vfs_getname.sh lib/probe.sh lib/probe_vfs_getname.sh; do
		install -m 755 "$ptests/$t" "$root/usr/lib/perf-core/tests/shell/$t"
	done
fi
# (grep reads all of readelf's output: under pipefail, -q's early exit
# would fail the pipe.)
if readelf -SW "$kout/vmlinux" | grep '\.debug_info' > /dev/null; then
	objcopy=objcopy
	[ "$karch" = arm64 ] && objcopy=aarch64-linux-gnu-objcopy
	mkdir -p "$root/usr/lib/debug/boot"
	"$objcopy" --only-keep-debug --remove-section='.rela*' \
		--compress-debug-sections=zlib-gabi "$kout/vmlinux" \
		"$root/usr/lib/debug/boot/vmlinux-$(cat "$kout/include/config/kernel.release")"
fi
out="$build/initramfs/$name-tools.cpio"
{
	cat "$base_cpio"
	(cd "$root" && find . -print0 | LC_ALL=C sort -z | cpio --quiet -o -0 -H newc -R 0:0)
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "tools-initramfs: $out ($(du -m "$out" | cut -f1) MiB)"
