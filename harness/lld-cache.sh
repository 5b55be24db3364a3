#!/bin/sh
# lld-cache.sh ARGS: ld.lld of Debian 12's LLVM 16 for the VARIANT=clang
# kernels (harness/lib.sh: toolchain), with a ThinLTO cache.
#
# With CONFIG_LTO_CLANG_THIN the objects are bitcode until the link:
# vmlinux.o's `ld -r` and each module's final link generate the machine
# code of every translation unit there, a cold build's worth of work that
# ccache cannot keep.  Linux 6.1's kbuild passes no cache directory, so
# this passes one: each unit's code is kept under its bitcode's and its
# imports' hash, and a link whose inputs did not change reuses it.  The
# cache lives beside ccache's files (THINLTO_CACHE, default
# $CCACHE_DIR/thinlto), so the machine that keeps ccache's hits keeps
# these; lld prunes it to 4 GiB and drops entries a week unused.
# Called for anything else (--version, a link without bitcode), lld
# ignores the options.
dir=${THINLTO_CACHE:-${CCACHE_DIR:-$HOME/.ccache}/thinlto}
exec /usr/lib/llvm-16/bin/ld.lld "$@" --thinlto-cache-dir="$dir" \
	--thinlto-cache-policy=cache_size_bytes=4g:prune_after=168h
