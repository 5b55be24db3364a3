#!/bin/sh
# lld-cache.sh ARGS: ld.lld of Debian 12's LLVM 16 for the VARIANT=clang
# kernels (harness/lib.sh: toolchain), with a ThinLTO cache.
#
# With CONFIG_LTO_CLANG_THIN the objects are bitcode until the link:
# vmlinux.o's `ld -r` and each module's final link generate the machine
# code of every translation unit there, a cold build's worth of work that
# ccache cannot keep.  lld can: with a cache directory it keeps each
# unit's code under a hash of its bitcode, its imports and the link's
# code-generation options, and a later link whose inputs did not change
# takes it from there.
#
# Where the hash falls short, no cache is used:
# - A unit whose top-level asm pulls a file in with .incbin keeps its
#   bitcode, and so its hash, when only that file changes.  In Linux 6.1
#   those are kernel/configs.c and kernel/kheaders.c, the embedded
#   config and headers (why the kernel itself stopped passing a cache
#   directory), so a config with IKCONFIG or IKHEADERS links uncached.
#   kbuild runs the links in the build directory, where .config is; a
#   link without one there also goes uncached.
# - LLVM's hash names its version (16.0.6), not Debian's package
#   revision, so the directory is named by the package's version.
#
# The cache lives beside ccache's files (THINLTO_CACHE, default
# $CCACHE_DIR/thinlto-VERSION), so the machine that keeps ccache's hits
# keeps these; ccache neither counts nor cleans it (`ccache -C` leaves
# it), and lld keeps it under 4 GiB and drops what a week left unused.
# Links with no bitcode (the vDSO, the final vmlinux) never touch it.
lld=/usr/lib/llvm-16/bin/ld.lld
# (Without CCACHE_DIR, which harness/lib.sh sets, or THINLTO_CACHE, none
# either.)
if [ ! -f .config ] || [ -z "${THINLTO_CACHE:-}${CCACHE_DIR:-}" ] ||
   grep -Eq '^CONFIG_(IKCONFIG|IKHEADERS)=[ym]' .config; then
	exec "$lld" "$@"
fi
ver=$(dpkg-query -W -f='${Version}' lld-16 2>/dev/null | tr -c 'A-Za-z0-9.+\n' _)
dir=${THINLTO_CACHE:-$CCACHE_DIR/thinlto-${ver:-unknown}}
exec "$lld" "$@" --thinlto-cache-dir="$dir" \
	--thinlto-cache-policy=cache_size_bytes=4g:prune_after=168h
