#!/usr/bin/env bash
# clients-root.sh ARCH ROOT [SET]: put a set of Debian's programs into the
# guest root ROOT, with every shared library they load.  The sets:
#   clients  trace-cmd and perf, the real clients of the tracefs files, for
#            harness/ftt/client-*.tc (initramfs.sh);
#   tools    bpftrace, bpftool, cyclictest, stress-ng and bcc (three of
#            its tools, Python and its library), the tools people trace
#            with, for harness/guest/tools.sh (tools-initramfs.sh); and
#            Debian's dash and coreutils' mktemp and touch, which perf's
#            shell tests are written for (busybox's sh runs its own
#            mktemp, which wants six Xs).
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
	$sysroot/usr/bin/stress-ng $sysroot/bin/mktemp $sysroot/bin/touch $sysroot/bin/dash" ;;
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
# bcc's tools are Python scripts over libbcc, which ctypes loads by name.
# Python goes to /usr (its own prefix) with the build machine's
# pure-Python library (for arm64, make setup downloads the interpreter of
# the same Debian release: 3.11 as here), without what no tool here
# imports, and of its compiled modules those that need no more than these
# libraries (not ssl, curses, sqlite...).  Without them, no bcc.
py=$sysroot/usr/bin/python3.11 lib=/usr/lib/python3.11
if [ "$set" = tools ] && { [ ! -x "$py" ] || [ ! -d /usr/lib/python3/dist-packages/bcc ]; }; then
	echo "clients-root: no Python or bcc: no bcc in the $arch guest (make setup)" >&2
elif [ "$set" = tools ]; then
	mkdir -p "$root/usr/bin" "$root$lib/lib-dynload" "$root/usr/lib/python3/dist-packages"
	install -m 755 "$py" "$root/usr/bin/python3.11"
	ln -sf python3.11 "$root/usr/bin/python3"
	queue+=("$py")
	rsync -a --exclude=test --exclude=idlelib --exclude=tkinter --exclude=turtledemo \
		--exclude=ensurepip --exclude=lib2to3 --exclude='config-3.11*' --exclude=venv \
		--exclude=site-packages --exclude=dist-packages --exclude=pydoc_data \
		--exclude=lib-dynload "$lib/" "$root$lib/"
	for m in "$sysroot$lib"/lib-dynload/*.so; do
		needed "$m" |
			grep -qvxE 'lib(c\.so\.6|m\.so\.6|z\.so\.1|ffi\.so\.8|bz2\.so\.1\.0|lzma\.so\.5)|ld-linux-.*' &&
			continue
		cp "$m" "$root$lib/lib-dynload/"
		queue+=("$m")
	done
	cp -r /usr/lib/python3/dist-packages/bcc "$root/usr/lib/python3/dist-packages/"
	m=$(find_lib libbcc.so.0)
	cp -L "$m" "$root/lib/$triplet/libbcc.so.0"
	queue+=("$m")
	for t in funccount trace funclatency; do
		install -m 755 "/usr/sbin/$t-bpfcc" "$root/opt/$set/bin/$t-bpfcc"
	done
fi
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
