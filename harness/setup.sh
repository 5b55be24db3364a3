#!/usr/bin/env bash
# Install, from Debian packages only, everything the harness needs.
# Idempotent: a second run with everything present does nothing but check.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
stamp_dir="$top/build/setup"
mkdir -p "$stamp_dir"

# Both bases (harness/lib.sh: BASE), which make check builds.
pkgs=(linux-source-6.1 linux-source-6.12 gcc-aarch64-linux-gnu libc6-dev-arm64-cross
      qemu-system-x86 qemu-system-arm busybox-static
      flex bison bc libelf-dev libssl-dev cpio ccache python3
      xz-utils rsync kmod dwarves perl file binutils-aarch64-linux-gnu
      # recordmcount's host tests compile for every machine upstream 6.1's
      # tool handles (scripts/tests/test_machines.py); armhf also builds the
      # arm kernel of make check's smoke step.
      gcc-i686-linux-gnu gcc-arm-linux-gnueabihf gcc-mips-linux-gnu
      gcc-mipsel-linux-gnu gcc-mips64-linux-gnuabi64 gcc-mips64el-linux-gnuabi64
      gcc-powerpc-linux-gnu gcc-powerpc64-linux-gnu gcc-powerpc64le-linux-gnu
      gcc-s390x-linux-gnu gcc-sh4-linux-gnu gcc-sparc64-linux-gnu
      procps	# sysctl, for the livepatch selftests (harness/kselftest-root.sh)
      sparse coccinelle	# harness/lint.sh, harness/cocci.sh
      spin	# harness/model.sh
      clang-16 lld-16 llvm-16	# VARIANT=clang kernels (harness/lib.sh: toolchain)
      trace-cmd linux-perf	# the clients in the guests (harness/clients-root.sh)
      bpftrace bpftool rt-tests stress-ng bpfcc-tools	# the tools in the guests (harness/tools.sh)
      linux-config-6.1 linux-config-6.12)	# Debian's own configs (VARIANT=debian*: harness/lib.sh)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done

# busybox for each guest arch, unpacked (not installed) from the Debian
# package: a foreign arch is added to dpkg so apt can fetch its index.
bb_arches=()
for arch in amd64 arm64 armhf; do
	[ -x "$stamp_dir/busybox-$arch" ] && continue
	bb_arches+=("$arch")
	if [ "$arch" != "$(dpkg --print-architecture)" ] &&
	   ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
		dpkg --add-architecture "$arch"
	fi
done

# apt_update: refresh the indexes, tried once more after a pause.  apt
# exits 100 when any one index fails, and one has since 21 Nov 2026 on this
# workplace's mirror (bookworm-security's armhf Packages.xz: "File has
# unexpected size ... Mirror sync in progress?"), failing CI, though only
# busybox-static comes from armhf.  So a foreign arch's index may fail and
# setup goes on (apt then fails on what it really cannot find); a failed
# index of this machine's own arch stops setup: an old index could install
# another linux-source-6.1 than the one the expectations were measured on.
# Only a refresh with no index failed sets "updated" (the arm64 sets'
# downloads refresh once more otherwise).
apt_update() {
	local err native try
	native=$(dpkg --print-architecture)
	for try in 1 2; do
		err=$(apt-get update -qq -o Acquire::Retries=3 2>&1) && { updated=1; return 0; }
		echo "$err" >&2
		[ $try = 1 ] && sleep 15
	done
	if echo "$err" | grep -E '^E: ' | grep -vE 'Some index files failed' |
	   grep -vE "binary-[a-z0-9]+/" > /dev/null ||
	   echo "$err" | grep -E "binary-$native/" > /dev/null; then
		echo "setup: apt-get update failed (above)" >&2
		exit 1
	fi
	echo "setup: apt-get update failed only for foreign arches' indexes (above); going on" >&2
}

export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -gt 0 ] || [ ${#bb_arches[@]} -gt 0 ]; then
	apt_update
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	apt-get install -y -qq -o Acquire::Retries=3 --no-install-recommends \
		"${missing[@]}" >/dev/null
fi

if [ ${#bb_arches[@]} -gt 0 ]; then
	tmp=$(mktemp -d); chmod 755 "$tmp"; chown _apt "$tmp" 2>/dev/null || true
	# One download for all; if one arch's index failed (apt_update), one
	# each: the others are kept and setup fails after them.
	bb_missing=0
	(cd "$tmp" && apt-get download -qq -o Acquire::Retries=3 \
		"${bb_arches[@]/#/busybox-static:}" >/dev/null 2>&1) ||
		for arch in "${bb_arches[@]}"; do
			(cd "$tmp" && apt-get download -qq -o Acquire::Retries=3 \
				"busybox-static:$arch" >/dev/null) ||
				{ echo "setup: no busybox-static:$arch" >&2; bb_missing=1; }
		done
	for arch in "${bb_arches[@]}"; do
		bb="$stamp_dir/busybox-$arch"
		compgen -G "$tmp/busybox-static_*_$arch.deb" > /dev/null || continue
		dpkg -x "$tmp"/busybox-static_*_"$arch".deb "$tmp/$arch"
		cp "$tmp/$arch/bin/busybox" "$bb.tmp" && mv "$bb.tmp" "$bb"
	done
	rm -rf "$tmp"
	[ $bb_missing = 0 ] || exit 1
fi

# owners PATH...: print the packages that hold the PATHs, one name a line,
# sorted, one dpkg query for them all (a query reads dpkg's whole database:
# over half a second, and the tools' libraries are a hundred and more).  A
# PATH is looked up as its target (readlink -f), then as it is, each also,
# for Debian 12's usrmerge, without /usr (dpkg knows coreutils'
# /usr/bin/mktemp as /bin/mktemp).  Exits 1, after printing the others,
# if a PATH has no package.  dpkg also prints a diversion's lines
# ("diversion by linux-perf from: /usr/bin/perf", as linux-perf diverts
# its own /usr/bin/perf to perf.wrapper): not names.  A file of several
# packages names them all; an arch qualifier (libc6:amd64) is dropped.
owners() {
	local p q line pkgs path cands=() res=() bad=0
	local -A own=()
	for p; do
		q=$(readlink -f "$p")
		cands+=("$q" "${q#/usr}" "$p" "${p#/usr}")
	done
	while IFS= read -r line; do
		case "$line" in diversion\ *|local\ diversion\ *) continue ;; esac
		[[ $line == *": /"* ]] || continue
		pkgs=${line%%: /*} path=/${line#*: /}
		own[$path]=$(printf '%s\n' ${pkgs//,/ } | cut -d: -f1 | sort -u | tr '\n' ' ')
	done < <(printf '%s\n' "${cands[@]}" | sort -u | xargs -d '\n' dpkg -S 2>/dev/null)
	for p; do
		q=$(readlink -f "$p")
		for path in "$q" "${q#/usr}" "$p" "${p#/usr}"; do
			if [ -n "$path" ] && [ -n "${own[$path]:-}" ]; then
				# shellcheck disable=SC2206
				res+=(${own[$path]})
				continue 2
			fi
		done
		bad=1
	done
	[ ${#res[@]} = 0 ] || printf '%s\n' "${res[@]}" | sort -u
	return $bad
}

# arm64_set NAME BIN...: for the arm64 guest (harness/clients-root.sh), the
# arm64 builds of the packages that hold the build machine's BINs and of
# every library those load, unpacked (not installed) into
# build/setup/NAME-arm64 (done again when the BINs change).  Without them
# the set's cases are unsupported on arm64.
arm64_set() {
	local set=$1 dir debs found tmp d pkgs=() libs=()
	shift
	dir="$stamp_dir/$set-arm64"
	[ "$(cat "$dir/.done" 2>/dev/null)" = "$*" ] && return
	[ "$(dpkg --print-architecture)" = amd64 ] || return 0
	# The indexes may be old on a machine set up before: refreshed once.
	[ -n "${updated:-}" ] || { apt_update; updated=1; }
	# A binary no package holds: no set (as when a download fails), tried
	# again by the next setup.  A library none holds is left out.
	if ! debs=$(owners "$@"); then
		echo "setup: a binary of $set is in no package: their cases will be unsupported on arm64" >&2
		return 0
	fi
	mapfile -t pkgs < <(echo "$debs" | sed 's/$/:arm64/')
	mapfile -t libs < <(ldd "$@" | grep -o '/[^ ]*\.so[^ ]*' | sort -u)
	debs=$(owners "${libs[@]}") || :
	tmp=$(mktemp -d); chmod 755 "$tmp"; chown _apt "$tmp" 2>/dev/null || true
	echo "setup: downloading $set for arm64 (${pkgs[*]%:arm64})"
	# An amd64 library with no arm64 build (stress-ng's libipsec-mb1) is
	# one the arm64 binary does not load: left out (clients-root.sh finds
	# what is missing).
	debs=$(for d in $debs; do echo "$d:arm64"; done)
	# shellcheck disable=SC2086
	found=$(apt-cache policy $debs 2>/dev/null | sed -n 's/^\([^ ].*\):$/\1/p')
	for d in $(echo "$debs" | grep -vxF "$found"); do echo "setup: $set: no $d" >&2; done
	debs=$found
	# shellcheck disable=SC2086
	if (cd "$tmp" && apt-get download -qq -o Acquire::Retries=3 "${pkgs[@]}" $debs >/dev/null); then
		rm -rf "$dir"
		for d in "$tmp"/*.deb; do dpkg -x "$d" "$dir"; done
		echo "$*" > "$dir/.done"
	else
		echo "setup: no arm64 $set: their cases will be unsupported on arm64" >&2
	fi
	rm -rf "$tmp"
}
arm64_set clients /usr/bin/trace-cmd /usr/bin/perf
# bcc: its library, Python and Python's compiled modules (clients-root.sh).
# dash, coreutils' mktemp and touch: perf's shell tests are written for them.
arm64_set tools /usr/bin/bpftrace /usr/sbin/bpftool /usr/bin/cyclictest /usr/bin/stress-ng \
	/usr/lib/x86_64-linux-gnu/libbcc.so.0 /usr/bin/python3.11 /usr/lib/python3.11/lib-dynload/*.so \
	/bin/mktemp /bin/touch /bin/dash

ls /usr/src/linux-source-6.1.tar.xz /usr/src/linux-source-6.12.tar.xz >/dev/null
echo "setup: ok"
