#!/usr/bin/env bash
# tools-initramfs.sh ARCH FLAVOR: the guest's initramfs with the tools people
# trace with (bpftrace, bcc, bpftool, cyclictest, stress-ng: clients-root.sh's
# set "tools"), the kernel's headers for bcc and their guest script
# (harness/guest/tools.sh), for harness=tools boots (qemu.sh with TOOLS=1).
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
out="$build/initramfs/$name-tools.cpio"
{
	cat "$base_cpio"
	(cd "$root" && find . -print0 | LC_ALL=C sort -z | cpio --quiet -o -0 -H newc -R 0:0)
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "tools-initramfs: $out ($(du -m "$out" | cut -f1) MiB)"
