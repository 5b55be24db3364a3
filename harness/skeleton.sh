#!/usr/bin/env bash
# skeleton.sh ARCH: the porters' skeleton of an ftrace back end,
# Documentation/trace/ftrace-arch-skeleton.c, builds and is clean.  Three
# results:
#   compile     kbuild compiles it as one object (never linked), W=1,
#               against the built ARCH-ours kernel (harness/kernel.sh ARCH
#               ours first), as an external module directory under build/;
#               any warning or error fails it;
#   checkpatch  checkpatch.pl --strict --no-tree -f, the pristine tree's;
#   kernel-doc  scripts/kernel-doc -none.
# KDIR=DIR compiles against another built kernel directory of the ours
# tree instead (e.g. build/kunit/x86_64).
# The last line is "N passed, N failed, N skipped".
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?ARCH}
check_arch "$arch"
src="$build/src/ours$base_suffix"
out=${KDIR:-$(kdir "$arch" ours)}
[ ! -d "$out" ] || out=$(cd "$out" && pwd)
file="$top/Documentation/trace/ftrace-arch-skeleton.c"
rel=${file#"$top"/}
[ -f "$file" ] || die "no $rel"
# What an external module build needs of the kernel's build directory.
for f in .config include/config/auto.conf include/generated/autoconf.h scripts/basic/fixdep; do
	[ -f "$out/$f" ] || die "no kernel built in ${out#"$top"/} (no $f; run harness/kernel.sh $arch ours)"
done
[ -f "$base/scripts/checkpatch.pl" ] || die "no pristine tree (harness/kernel.sh unpack)"

pass=0 fail=0
result() {	# result FAILED NAME: one result line (FAILED 0 or 1)
	if [ "$1" = 0 ]; then
		echo "ok   skeleton $arch $2"; pass=$((pass + 1))
	else
		echo "FAIL skeleton $arch $2"; fail=$((fail + 1))
	fi
}

# The skeleton alone in a kbuild directory of its own, as built-in code
# (obj-y: compiled without -DMODULE, as an arch's ftrace.o is).
tmp=$(mktemp -d "$build/skeleton.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$file" "$tmp/"
echo "obj-y := ftrace-arch-skeleton.o" > "$tmp/Kbuild"
log="$tmp/make.log"
rc=0
toolchain
make -s -C "$src" O="$out" M="$tmp" ARCH="$karch" "${tc[@]}" \
	W=1 ftrace-arch-skeleton.o > "$log" 2>&1 || rc=$?
bad=0
if [ $rc != 0 ] || [ ! -f "$tmp/ftrace-arch-skeleton.o" ] || grep -qiE 'warning|error' "$log"; then
	bad=1
	echo "skeleton: make exited $rc, saying:"
	sed "s|$tmp/|$(dirname "$rel")/|g" "$log" | head -n 40
fi
result $bad compile

# checkpatch and kernel-doc on the file where it lives, named as in the
# repository.
bad=0
res=$(cd "$top" && perl "$base/scripts/checkpatch.pl" --strict --no-tree --terse \
	--no-summary -f "$rel" 2>&1) || bad=1
[ -z "$res" ] || { bad=1; echo "$res" | head -n 40; }
result $bad checkpatch

bad=0
res=$(cd "$top" && perl "$base/scripts/kernel-doc" -none "$rel" 2>&1) || bad=1
[ -z "$res" ] || { bad=1; echo "$res" | head -n 40; }
result $bad kernel-doc

echo "$pass passed, $fail failed, 0 skipped"
[ $fail = 0 ]
