#!/usr/bin/env bash
# clients-root.sh ARCH ROOT [SET]: put a set of Debian's programs into the
# guest root ROOT, with every shared library they load.  The sets:
#   clients  trace-cmd and perf, the real clients of the tracefs files, for
#            harness/ftt/client-*.tc (initramfs.sh);
#   tools    bpftrace, bpftool, cyclictest and stress-ng, the tools people
#            trace with, for harness/guest/tools.sh (tools-initramfs.sh).
#
# The binaries are Debian 12's own:
#   - x86_64 guests get the build machine's, when it is amd64 (make setup
#     installs the packages);
#   - arm64 guests get them from the arm64 packages that make setup
#     downloads and unpacks into build/setup/SET-arm64 (see setup.sh).
# They go to /opt/SET/bin, which no other guest script has on PATH;
# the libraries go to the loader's default directory of the guest's
# Debian arch.  Without them the set's cases are UNSUPPORTED.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?ARCH}; root=${2:?ROOT}; set=${3:-clients}
case "$arch" in
x86_64) deb=amd64 triplet=x86_64-linux-gnu ;;
arm64) deb=arm64 triplet=aarch64-linux-gnu ;;
*) exit 0 ;;
esac

if [ "$deb" = "$(dpkg --print-architecture)" ]; then
	sysroot=
else
	sysroot="$build/setup/$set-$deb"
fi
case "$set" in
clients) bins="$sysroot/usr/bin/trace-cmd $sysroot/usr/bin/perf" ;;
tools) bins="$sysroot/usr/bin/bpftrace $sysroot/usr/sbin/bpftool $sysroot/usr/bin/cyclictest
	$sysroot/usr/bin/stress-ng" ;;
*) die "clients-root: no set $set" ;;
esac
for b in $bins; do
	if [ ! -x "$b" ]; then
		echo "clients-root: no $b: no $set in the $arch guest" >&2
		exit 0
	fi
done

# needed ELF: the sonames ELF asks the loader for.
needed() {
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}

# find_lib SONAME: the file of SONAME in the sysroot's library directories.
find_lib() {
	local d
	for d in "$sysroot/lib/$triplet" "$sysroot/usr/lib/$triplet" "$sysroot/lib" "$sysroot/usr/lib"; do
		if [ -e "$d/$1" ]; then
			echo "$d/$1"
			return
		fi
	done
	die "clients-root: $1 not found under ${sysroot:-/}"
}

mkdir -p "$root/opt/$set/bin" "$root/lib/$triplet" "$root/lib64"
declare -A seen=()
queue=()
for b in $bins; do
	install -m 755 "$(readlink -f "$b")" "$root/opt/$set/bin/$(basename "$b")"
	queue+=("$b")
done
# Every library the binaries load, and what those load in turn.
while [ ${#queue[@]} -gt 0 ]; do
	f=${queue[0]}
	queue=("${queue[@]:1}")
	for so in $(needed "$f"); do
		[ -n "${seen[$so]:-}" ] && continue
		seen[$so]=1
		lib=$(find_lib "$so")
		cp -L "$lib" "$root/lib/$triplet/$so"
		queue+=("$lib")
	done
done
# The loader, at the path the binaries name (PT_INTERP).
interp=$(readelf -l "${bins%% *}" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
[ -n "$interp" ] || die "clients-root: ${bins%% *} has no interpreter"
mkdir -p "$root$(dirname "$interp")"
cp -L "$(find_lib "$(basename "$interp")")" "$root$interp"
echo "clients-root: $set, $(( ${#seen[@]} )) libraries" >&2
