#!/usr/bin/env bash
# series.sh: the project as a git format-patch series against the pristine base.
#
# Each project commit that changes the kernel tree (overlay files or
# patches/) becomes one kernel commit with the same message and author: its
# tree is the pristine base, patches/series applied, the files of
# patches/removed deleted, the overlay on top, all as of that project
# commit.  The kernel history lives in a bare repository
# (build/series.git) whose first commit is the pristine base; the pristine
# tree itself is only read.  Output: build/series/*.patch
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ -f "$base/.unpacked" ] || "$top/harness/kernel.sh" unpack
export GIT_DIR="$build/series.git"
ver=$(make -s -C "$base" kernelversion)

if ! git rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	echo "series: indexing the pristine Linux $ver tree (once)"
	rm -rf "$GIT_DIR"; git init -q --bare "$GIT_DIR"
	GIT_INDEX_FILE="$GIT_DIR/base.index" GIT_WORK_TREE="$base" \
		git add -A -f -- . ':!.unpacked'
	tree=$(GIT_INDEX_FILE="$GIT_DIR/base.index" git write-tree)
	c=$(GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" git -c user.name=base -c user.email=base@localhost \
		commit-tree "$tree" -m "Linux $ver as shipped by Debian 12 (linux-source-6.1)")
	git tag base "$c"
fi

# pgit: git on the project repository (GIT_DIR names the kernel history).
pgit() { GIT_DIR="$top/.git" git -C "$top" "$@"; }

# kernel_tree COMMIT: write the kernel tree of project commit COMMIT, print it.
kernel_tree() {
	local c=$1 tmp idx f
	tmp=$(mktemp -d); idx="$tmp/index"
	GIT_INDEX_FILE=$idx git read-tree base
	mkdir "$tmp/w"
	# Patched upstream files: copy the ones each patch touches, then apply.
	pgit show "$c:patches/series" 2>/dev/null |
		grep -v '^#' | while read -r p; do
		[ -n "$p" ] || continue
		pgit show "$c:patches/$p" > "$tmp/p"
		for f in $(grep '^+++ ' "$tmp/p" | sed 's,^+++ [^/]*/,,;s,\t.*,,'); do
			[ -e "$tmp/w/$f" ] || { [ -f "$base/$f" ] && install -D -m 644 "$base/$f" "$tmp/w/$f"; } || true
		done
		patch -s -p1 -d "$tmp/w" --no-backup-if-mismatch -F0 < "$tmp/p" ||
			die "patch $p does not apply at $c"
	done
	# Upstream files deleted as of that commit (patches/removed).
	# (A mode-0 entry removes a path; the repository has no work tree.)
	pgit show "$c:patches/removed" 2>/dev/null |
		grep -v -e '^#' -e '^[[:space:]]*$' |
		sed 's/^/0 0000000000000000000000000000000000000000\t/' |
		GIT_INDEX_FILE=$idx git update-index --index-info
	# Overlay files as of that commit.
	dirs=$(for d in $overlay_dirs; do pgit ls-tree -d --name-only "$c" "$d"; done)
	[ -z "$dirs" ] || pgit archive "$c" -- $dirs | tar -x -C "$tmp/w"
	(cd "$tmp/w" && find . -type f | sed 's,^\./,,') | while read -r f; do
		mode=100644; [ -x "$tmp/w/$f" ] && mode=100755
		printf '%s %s\t%s\n' "$mode" "$(git hash-object -w "$tmp/w/$f")" "$f"
	done | GIT_INDEX_FILE=$idx git update-index --index-info
	GIT_INDEX_FILE=$idx git write-tree
	rm -rf "$tmp"
}

parent=$(git rev-parse base); prev_tree=$(git rev-parse "base^{tree}"); n=0
for c in $(pgit rev-list --reverse HEAD); do
	tree=$(kernel_tree "$c")
	[ "$tree" = "$prev_tree" ] && continue
	parent=$(pgit log -1 --format='%B' "$c" |
		GIT_AUTHOR_NAME="$(pgit log -1 --format=%an "$c")" \
		GIT_AUTHOR_EMAIL="$(pgit log -1 --format=%ae "$c")" \
		GIT_AUTHOR_DATE="$(pgit log -1 --format=%ad "$c")" \
		GIT_COMMITTER_NAME=series GIT_COMMITTER_EMAIL=series@localhost \
		GIT_COMMITTER_DATE="$(pgit log -1 --format=%cd "$c")" \
		git commit-tree "$tree" -p "$parent")
	prev_tree=$tree; n=$((n + 1))
done
git update-ref refs/heads/series "$parent"
rm -rf "$build/series"; mkdir -p "$build/series"
if [ "$n" = 0 ]; then
	echo "series: no project commit changes the kernel tree yet (ours = upstream $ver)"
	exit 0
fi
# A deleted upstream file appears as its deletion only, never its text.
git format-patch -q --irreversible-delete -o "$build/series" base..series
echo "series: $n patches against Linux $ver in $build/series/"
ls "$build/series"
