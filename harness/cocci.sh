#!/usr/bin/env bash
# cocci.sh: the kernel's own coccinelle scripts (scripts/coccinelle/, run
# by Debian's spatch in report mode) on the core's files.  One result per
# file: a file passes when no script reports anything in it.  The scripts
# run on the unpacked tree of our flavor (harness/kernel.sh builds it), one
# spatch per script over all the files, as "make coccicheck" would run
# them one directory at a time.  Takes about two minutes.
# The last line is "N passed, N failed, N skipped".
set -uo pipefail
. "$(dirname "$0")/lib.sh"
src="$build/src/ours$base_suffix"
[ -d "$src/scripts/coccinelle" ] || die "no unpacked tree at $src (run harness/kernel.sh x86_64 ours)"
command -v spatch > /dev/null || die "spatch is not installed (make setup)"
ver=$(spatch --version | head -1 | awk '{print $3}')
files=$(cd "$top" && ls kernel/trace/ftrace_*.c)
# Check the files as they are in the overlay now, not as last unpacked.
for f in $files; do
	cmp -s "$top/$f" "$src/$f" || die "$src/$f differs from $f (run harness/kernel.sh first)"
done
log=$(mktemp)
bad=0 scripts=0
for c in $(find "$src/scripts/coccinelle" -name '*.cocci' -type f | sort); do
	opt=$(grep "Options:" "$c" | cut -d: -f2)
	req=$(grep "Requires:" "$c" | cut -d: -f2 | tr -d ' ')
	# As coccicheck does: skip a script needing a newer spatch.
	if [ -n "$req" ] && ! printf '%s\n%s\n' "$req" "$ver" | sort -CV; then
		echo "skip ${c#"$src/"}: needs spatch $req"
		continue
	fi
	scripts=$((scripts + 1))
	# shellcheck disable=SC2086
	if ! (cd "$src" && spatch -D report --no-show-diff --very-quiet \
		--cocci-file "$c" $opt $files) >> "$log" 2> /dev/null; then
		echo "FAIL coccinelle: spatch failed on ${c#"$src/"}"
		bad=$((bad + 1))
	fi
done
pass=0 fail=$bad
for f in $files; do
	if grep -E "^(\./)?$f:[0-9]+" "$log"; then
		echo "FAIL coccinelle $f"; fail=$((fail + 1))
	else
		echo "ok   coccinelle $f"; pass=$((pass + 1))
	fi
done
echo "coccinelle: $scripts scripts, spatch $ver"
rm -f "$log"
echo "$pass passed, $fail failed, 0 skipped"
[ $fail = 0 ]
