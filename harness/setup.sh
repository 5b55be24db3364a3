#!/usr/bin/env bash
# Install, from Debian packages only, everything the harness needs.
# Idempotent: a second run with everything present does nothing but check.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
stamp_dir="$top/build/setup"
mkdir -p "$stamp_dir"

pkgs=(linux-source-6.1 gcc-aarch64-linux-gnu libc6-dev-arm64-cross
      qemu-system-x86 qemu-system-arm busybox-static
      flex bison bc libelf-dev libssl-dev cpio ccache python3
      xz-utils rsync kmod dwarves perl file binutils-aarch64-linux-gnu
      procps)	# sysctl, for the livepatch selftests (harness/kselftest-root.sh)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done

export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# busybox for each guest arch, unpacked (not installed) from the Debian package.
for arch in amd64 arm64; do
	bb="$stamp_dir/busybox-$arch"
	[ -x "$bb" ] && continue
	if [ "$arch" != "$(dpkg --print-architecture)" ] &&
	   ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
		dpkg --add-architecture "$arch"
		apt-get update -qq
	fi
	tmp=$(mktemp -d); chmod 755 "$tmp"; chown _apt "$tmp" 2>/dev/null || true
	(cd "$tmp" && apt-get download -qq "busybox-static:$arch" >/dev/null)
	dpkg -x "$tmp"/busybox-static_*.deb "$tmp/x"
	cp "$tmp/x/bin/busybox" "$bb.tmp" && mv "$bb.tmp" "$bb"
	rm -rf "$tmp"
done

ls /usr/src/linux-source-6.1.tar.xz >/dev/null
echo "setup: ok"
