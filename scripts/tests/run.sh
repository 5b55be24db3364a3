#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of scripts/recordmcount: build it with every warning as an
# error and with AddressSanitizer and UBSan, then run the tests on the
# sanitized build.  Last line: "N passed, N failed, N skipped".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out="$top/build/host"
mkdir -p "$out"
src=("$top"/scripts/recordmcount.c "$top"/scripts/recordmcount-elf.c
     "$top"/scripts/recordmcount-write.c)
# __printf() and friends: tools/include, as kbuild passes it (scripts/Makefile).
inc="$top/tools/include"
[ -d "$inc" ] || inc="$top/build/base/linux-source-6.1/tools/include"
warn=(-I"$inc" -Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes
      -Wshadow -Wformat=2 -Wno-unused-parameter)
gcc -O2 "${warn[@]}" -o "$out/recordmcount" "${src[@]}"
gcc -O1 -g "${warn[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
	-o "$out/recordmcount-san" "${src[@]}"
# Upstream 6.1's tool, built from the pristine sources, is the oracle the
# per-machine tests compare against; it is never part of the repository.
up_src="$top/build/base/linux-source-6.1/scripts"
if [ ! -f "$up_src/recordmcount.c" ]; then
	up_src="$out/upstream-src/linux-source-6.1/scripts"
	if [ ! -f "$up_src/recordmcount.c" ] && [ -f /usr/src/linux-source-6.1.tar.xz ]; then
		mkdir -p "$out/upstream-src"
		tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$out/upstream-src" \
			linux-source-6.1/scripts/recordmcount.c \
			linux-source-6.1/scripts/recordmcount.h
	fi
fi
if [ -f "$up_src/recordmcount.c" ]; then
	gcc -O2 -w -o "$out/recordmcount-6.1" "$up_src/recordmcount.c"
	export UPSTREAM_RMC="$out/recordmcount-6.1"
fi
export PYTHONDONTWRITEBYTECODE=1
export ASAN_OPTIONS=exitcode=99:detect_leaks=1 UBSAN_OPTIONS=exitcode=98
RMC="$out/recordmcount-san" WORK="$out/rmc-tests" \
	exec python3 "$here/test_recordmcount.py"
