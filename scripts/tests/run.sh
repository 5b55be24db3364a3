#!/usr/bin/env bash
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
warn=(-Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes
      -Wshadow -Wformat=2 -Wno-unused-parameter)
gcc -O2 "${warn[@]}" -o "$out/recordmcount" "${src[@]}"
gcc -O1 -g "${warn[@]}" -fsanitize=address,undefined -fno-sanitize-recover=all \
	-o "$out/recordmcount-san" "${src[@]}"
export ASAN_OPTIONS=exitcode=99:detect_leaks=1 UBSAN_OPTIONS=exitcode=98
RMC="$out/recordmcount-san" WORK="$out/rmc-tests" \
	exec python3 "$here/test_recordmcount.py"
