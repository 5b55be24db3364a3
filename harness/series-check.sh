#!/usr/bin/env bash
# series-check.sh: the curated series (harness/series.py), as a maintainer
# would take it.
#
#  1. git am every patch, in order, onto a checkout of the pristine base
#     (the form with full deletions: git am cannot apply a deletion sent
#     without its text).
#  2. After each patch, build x86_64 with make check's config for the ours
#     kernel (harness/lib.sh config_fragments), incrementally and through
#     ccache.  Until the patch that links the new core in place of
#     ftrace.c, the core's files the series has added so far are compiled
#     too, as kbuild extra-y objects of a scratch copy of
#     kernel/trace/Makefile (with the final Makefile's config conditions),
#     so every patch's code is compiled where it is added.
#  3. checkpatch.pl --strict on every patch as it would be sent, run in
#     the pristine tree.  FILE_PATH_CHANGES ("does MAINTAINERS need
#     updating?") is checked instead with get_maintainer.pl: every file
#     the series adds must have a maintainer; UNDOCUMENTED_SETUP (which
#     sees only documentation added by the same patch) is checked against
#     kernel-parameters.txt: every __setup() the series adds is documented;
#     MACRO_ARG_REUSE is accepted on for_each_*() iterator macros only.
#
# BASE=6.12 checks the 6.12 series (harness/series.py --base 6.12) on
# Linux 6.12 the same way, in build/series-check-6.12/.
# STEPS=FIRST-LAST limits the builds to those patches (all are applied and
# checkpatched).  QUICK=1 (make check) skips steps 1 and 2: the plan, the
# last tree, checkpatch, maintainers and boot parameters only.
# Output: build/series-check[-BASE]/ (logs/NNNN.log per build).  Last line:
# "N passed, N failed, N skipped", one check each.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arch=x86_64; check_arch "$arch"
sc="$build/series-check$base_suffix"
# What harness/series.py writes for this base.
sgit="$build/series$base_suffix.git"
sout="$build/series$base_suffix"
wt="$sc/src/ours"
out="$sc/kernel/$arch-ours"
logs="$sc/logs"
start=$(date +%s)

fail=0; built=0; compiled_early=0; buildfail=0
if [ -n "${QUICK:-}" ]; then
	python3 "$top/harness/series.py" ${SERIES_ARGS:-}
	mapfile -t mail < <(ls "$sout"/0*.patch | grep -v '/0000-')
	n=${#mail[@]}
	# The file the boot parameter check reads, as the series leaves it.
	[ -z "$(git --git-dir="$sgit" diff --name-only base series -- \
		Documentation/admin-guide/kernel-parameters.txt)" ] ||
		die "QUICK: the series changes kernel-parameters.txt; run it in full"
	tree=$base
else
python3 "$top/harness/series.py" --am "$sc/am"
mapfile -t mail < <(ls "$sout"/0*.patch | grep -v '/0000-')
mapfile -t am < <(ls "$sc"/am/0*.patch)
[ "${#mail[@]}" = "${#am[@]}" ] || die "the two forms of the series differ in length"
n=${#am[@]}
first=1; last=$n
if [ -n "${STEPS:-}" ]; then first=${STEPS%-*}; last=${STEPS#*-}; fi

export GIT_DIR="$sgit"
kgit() { git --git-dir="$wt/.git" --work-tree="$wt" -c user.name=series-check \
	-c user.email=series-check@localhost "$@"; }
if [ ! -d "$wt/.git" ]; then
	echo "series-check: checking out the pristine tree (once)"
	rm -rf "$wt"; mkdir -p "$(dirname "$wt")"
	git clone -q --no-checkout "$GIT_DIR" "$wt"
fi
unset GIT_DIR
kgit fetch -q "$sgit" refs/tags/base:refs/tags/base
# Back to the base: git rewrites only the files that differ, so make
# rebuilds only what the series touches.
kgit am --abort >/dev/null 2>&1 || true
kgit checkout -q -f --detach base
kgit clean -q -fdx

export KBUILD_BUILD_TIMESTAMP='2026-01-01' KBUILD_BUILD_USER=ftrace KBUILD_BUILD_HOST=harness
kmake() {
	make -C "$wt" O="$out" ARCH="$karch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" HOSTCC="ccache gcc" "$@"
}
mkdir -p "$out" "$logs"
# The fragments merged once; each step's olddefconfig keeps what its
# Kconfig knows (options added by later patches wait for them).
frags=$(config_fragments "$arch" ours) || exit 1
frags=$(rename_fragments "$sc/fragments" $frags)
kmake -s tinyconfig > /dev/null
KCONFIG_CONFIG="$sc/want.config" "$wt/scripts/kconfig/merge_config.sh" -m -O "$sc" \
	"$out/.config" $frags > "$sc/merge_config.log" 2>&1
rm -f "$out/.config"

# The libftrace lines of the series' final kernel/trace/Makefile, renamed,
# for compiling the core's files before they are linked.
final_mk=$(git --git-dir="$sgit" show series:kernel/trace/Makefile)
scratch_mk=$(echo "$final_mk" | sed -n '/^libftrace-y :=/,$p' | sed 's/libftrace-/ftcheck-/g')
[ -n "$scratch_mk" ] || die "no libftrace lines in the final kernel/trace/Makefile"

for i in $(seq 1 "$n"); do
	p=${am[$((i - 1))]}
	name=$(basename "$p")
	kgit am -q --keep-cr "$p" || { kgit am --abort || true; die "$name does not apply with git am"; }
	[ "$i" -ge "$first" ] && [ "$i" -le "$last" ] || continue
	log="$logs/${name%%-*}.log"
	cp "$sc/want.config" "$out/.config"
	kmake -s olddefconfig > "$log" 2>&1
	early=
	if grep -q '^libftrace-y := ftrace.o$' "$wt/kernel/trace/Makefile" &&
	   ls "$wt"/kernel/trace/ftrace_*.c > /dev/null 2>&1; then
		early=1
		# The objects of the files present that this config selects,
		# printed by kbuild so the check below knows them; none left
		# from an earlier step.
		rm -f "$out"/kernel/trace/ftrace_*.o
		{ echo
		  echo "# series-check: compile the core's files before they are linked"
		  echo "$scratch_mk"
		  echo 'ftcheck-early := $(filter $(patsubst %.c,%.o,$(notdir $(wildcard $(srctree)/kernel/trace/ftrace_*.c))),$(ftcheck-y))'
		  echo 'extra-y += $(ftcheck-early)'
		  echo '$(info series-check-early: $(ftcheck-early))'
		} >> "$wt/kernel/trace/Makefile"
	fi
	t0=$(date +%s)
	rc=0
	kmake -j"${JOBS:-3}" bzImage modules >> "$log" 2>&1 || rc=$?
	[ -z "$early" ] || kgit checkout -q -- kernel/trace/Makefile
	if [ $rc != 0 ]; then
		echo "series-check: FAIL build $name (log: ${log#"$top"/})"
		grep -E 'error|Error' "$log" | head -n 20
		fail=1; buildfail=1
		break
	fi
	if [ -n "$early" ]; then
		early=$(sed -n 's/^series-check-early: *//p' "$log" | tail -n 1)
		[ -n "$early" ] ||
			{ echo "series-check: FAIL $name: no file of the core selected to compile"; fail=1; }
		for o in $early; do
			[ -f "$out/kernel/trace/$o" ] ||
				{ echo "series-check: FAIL $name: kernel/trace/${o%.o}.c was not compiled"; fail=1; }
		done
		early=$(echo "$early" | sed 's/\.o\b/.c/g')
		compiled_early=$((compiled_early + 1))
	fi
	built=$((built + 1))
	echo "series-check: built $name in $(( $(date +%s) - t0 )) s${early:+ (and compiled, not linked: $early)}"
done
tree=$wt
fi

# iterators_kept PATCH: checkpatch's lines on stdin, less its macro argument
# reuse CHECKs on "#define for_each_*(" lines of PATCH: a loop iterator
# names its cursor in the loop's start, test and step, as every
# for_each macro of the kernel does (list.h's too).
iterators_kept() {
	local ln n
	while IFS= read -r ln; do
		[ -n "$ln" ] || continue
		if [[ $ln =~ :([0-9]+):\ CHECK:\ Macro\ argument\ reuse ]]; then
			n=${BASH_REMATCH[1]}
			sed -n "${n}p" "$1" | grep -q '^+#define for_each_[a-z_]*(' && continue
		fi
		echo "$ln"
	done
}

# checkpatch, in the pristine tree, on the patches as they would be sent.
clean=0
for p in "${mail[@]}"; do
	res=$(cd "$base" && perl scripts/checkpatch.pl --strict --terse --no-summary \
		--ignore FILE_PATH_CHANGES,UNDOCUMENTED_SETUP "$p" 2>&1) || true
	res=$(echo "$res" | iterators_kept "$p")
	if [ -z "$res" ]; then
		clean=$((clean + 1))
	else
		echo "series-check: FAIL checkpatch $(basename "$p"):"
		echo "$res" | head -n 20
		fail=1
	fi
done

# Every file the series adds has a maintainer (what FILE_PATH_CHANGES asks),
# by the series' MAINTAINERS: get_maintainer.pl on a one-line patch adding
# the file, in a tree of links to the pristine one.
added=$(git --git-dir="$sgit" diff --name-only --diff-filter=A base series)
orphans=0
mt=$(mktemp -d)
for e in "$base"/* "$base"/.[!.]*; do [ -e "$e" ] && ln -s "$e" "$mt/"; done
rm "$mt/MAINTAINERS"
git --git-dir="$sgit" show series:MAINTAINERS > "$mt/MAINTAINERS"
for f in $added; do
	printf -- '--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+x\n' "$f" > "$mt/one.patch"
	if ! (cd "$mt" && perl scripts/get_maintainer.pl --nogit --nogit-fallback one.patch 2>/dev/null) |
		grep -q '(maintainer'; then
		echo "series-check: FAIL no maintainer for $f"; orphans=$((orphans + 1)); fail=1
	fi
done
rm -rf "$mt"

# Every boot parameter the series adds is documented (what
# UNDOCUMENTED_SETUP asks; checkpatch only sees documentation that the same
# patch adds, and these parameters are 6.1's, documented already).
undoc=0
params=$(cat "${mail[@]}" | sed -n 's/^+.*__setup("\([^"=]*=\?\)".*/\1/p' | sort -u)
for prm in $params; do
	grep -q "^[[:space:]]*$prm" "$tree/Documentation/admin-guide/kernel-parameters.txt" ||
		{ echo "series-check: FAIL boot parameter $prm is not documented"; undoc=$((undoc + 1)); fail=1; }
done

[ -n "${QUICK:-}" ] ||
	echo "series-check: $n patches applied with git am; $built built for $arch" \
		"($compiled_early with the core's unlinked files compiled)"
echo "series-check:" \
	"$clean of ${#mail[@]} checkpatch --strict clean;" \
	"$(echo "$added" | wc -w) added files, $orphans without a maintainer;" \
	"$(echo "$params" | wc -w) boot parameters, $undoc undocumented;" \
	"$(( $(date +%s) - start )) s"
nadded=$(echo "$added" | wc -w); nparams=$(echo "$params" | wc -w)
echo "$((clean + built + nadded - orphans + nparams - undoc)) passed," \
	"$((${#mail[@]} - clean + buildfail + orphans + undoc)) failed, 0 skipped"
[ $fail = 0 ] || exit 1
