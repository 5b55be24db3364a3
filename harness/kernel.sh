#!/usr/bin/env bash
# kernel.sh ARCH FLAVOR: build one kernel and its modules out of tree.
# kernel.sh unpack: only unpack the pristine base.
# kernel.sh prepare: unpack, and make the ours tree (build/src/ours) only.
#
#   upstream: the pristine Linux 6.1.y from linux-source-6.1, untouched
#             (BASE=6.12: 6.12.y from linux-source-6.12; harness/lib.sh).
#   ours:     the pristine tree, then patches/series, less the files listed
#             in patches/removed, then the overlay files.
#   wip:      as ours, plus patches/wip.series (work in progress that is not
#             part of the series yet: make check never builds it).
#
# Both use the same config: tinyconfig plus configs/*.config fragments
# (on a base with configs/BASE/renames, with the options renamed by it);
# VARIANT=debian, debian-full, debian-rt: Debian's own x86_64 config of the
# base plus the few fragments the tests need (harness/lib.sh: debian_config;
# debian-rt: the rt flavour's lines on the cloud config, 6.12 only).
# Output: build/kernel/ARCH-FLAVOR/{.config,IMAGE,modroot/} (kname in
# harness/lib.sh: build/kernel/ARCH-FLAVOR-6.12/ for BASE=6.12).
# OBJS_ONLY=1: configure, then compile only kernel/trace/ and the arch's
# kernel/ directory (the core, the back end and their neighbours), with
# no image and no modules: what make check builds of the kernels it does
# not boot.  A later full build of the same directory goes on from there.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ "${1:-}" = unpack ]; then
	unpack_only=1; set -- x86_64 upstream
elif [ "${1:-}" = prepare ]; then
	prepare_only=1; set -- x86_64 ours
fi
arch=${1:?ARCH}; flavor=${2:?FLAVOR}
check_arch "$arch"; check_flavor "$flavor"

unpack_base() {
	[ -f "$base/.unpacked" ] && return
	# Each base has a directory of its own under build/base: unpacking one
	# leaves the others alone.
	rm -rf "$base"; mkdir -p "$build/base"
	echo "kernel: unpacking $base_tar"
	tar -xJf "$base_tar" -C "$build/base" "$(basename "$base")"
	touch "$base/.unpacked"
}

base_version() {
	make -s -C "$base" kernelversion 2>/dev/null
}

# series_patches: the patch names in the base's series, in order (none if
# absent): patches/series for 6.1, patches/BASE/series for another base
# ($pdir, harness/lib.sh).
series_patches() {
	local f
	for f in series ${wip_series:-}; do
		[ -f "$pdir/$f" ] || continue
		grep -v -e '^#' -e '^[[:space:]]*$' "$pdir/$f" || true
	done
}

# removed_files: the upstream files the series deletes (patches/removed):
# files our overlay replaces under other names.  The series carries their
# deletion without their text (harness/series.py).
removed_files() {
	[ -f "$pdir/removed" ] || return 0
	grep -v -e '^#' -e '^[[:space:]]*$' "$pdir/removed" || true
}

# The tree for FLAVOR=ours: a hard-linked copy of the pristine tree (patch and
# rsync write new files, so the pristine copy is never modified), the series
# applied, the overlay copied on top. It is rebuilt from scratch whenever the
# series or the set of overlay files changes; otherwise only changed overlay
# files are copied (by checksum, so make sees new mtimes only where needed).
prepare_ours() {
	local key files p
	src="$build/src/$flavor$base_suffix"
	# Less the other base's files ($pdir/overlay-skip).
	files=$(cd "$top" && git ls-files -co --exclude-standard -- $overlay_dirs 2>/dev/null | sort |
		while read -r f; do if [ -f "$f" ]; then echo "$f"; fi; done |
		grep -vxF -f <(grep -v -e '^#' -e '^[[:space:]]*$' "$pdir/overlay-skip" 2>/dev/null ||
			echo /nothing/) || true)
	key=$( (for p in $(series_patches); do
			echo "$p"; cat "$pdir/$p"
		done
		removed_files
		echo "$files") | sha256sum | cut -d' ' -f1)
	if [ "$(cat "$src.key" 2>/dev/null)" != "$key" ]; then
		echo "kernel: preparing the ours tree" >&2
		rm -rf "$src" "$src.key" "$(kdir x86_64 "$flavor")" "$(kdir arm64 "$flavor")" \
			"$(kdir arm "$flavor")"
		mkdir -p "$build/src"
		cp -al "$base" "$src"
		for p in $(series_patches); do
			patch -s -p1 -d "$src" --no-backup-if-mismatch -F0 \
				< "$pdir/$p" || die "patch $p does not apply"
		done
		for p in $(removed_files); do
			[ -f "$src/$p" ] || die "${pdir#"$top"/}/removed: no $p in the tree"
			rm "$src/$p"
		done
	fi
	if [ -n "$files" ]; then
		(cd "$top" && echo "$files" | rsync -rlc --files-from=- . "$src/")
	fi
	echo "$key" > "$src.key"
}

# kmake ARGS: make in $src for the build directory $out, cross and ccache set.
kmake() {
	local tc
	toolchain
	make -C "$src" O="$out" ARCH="$karch" "${tc[@]}" "$@"
}

# last_values: the fragments' CONFIG_ lines, only the last one of each option
# (a later fragment overrides an earlier one, as merge_config.sh does).
last_values() {
	awk -F= '/^CONFIG_/ { if (!($1 in v)) order[n++] = $1; v[$1] = $0 }
		END { for (i = 0; i < n; i++) print v[order[i]] }'
}

configure() {
	local frags key start_from
	frags=$(config_fragments "$arch" "$flavor") || exit 1
	# shellcheck disable=SC2086
	frags=$(rename_fragments "$out/fragments" $frags)
	# The realtime flavour's own lines go first: the tests' fragments win.
	if [ "${VARIANT:-}" = debian-rt ]; then
		debian_rt_delta > "$out/debian-rt.config"
		frags="$out/debian-rt.config $frags"
	fi
	# The config the fragments go on: tinyconfig's, or Debian's own.
	start_from=$(debian_config)
	if [ -n "$start_from" ] && [ ! -f "$start_from" ]; then
		die "no $start_from (make setup installs linux-config-$BASE)"
	fi
	key=$(cat $frags ${start_from:+"$start_from"} | sha256sum | cut -d' ' -f1)
	# A .config that another base's tree wrote (a tool run on this build
	# directory with the wrong tree) is made again.
	head -n 3 "$out/.config" 2>/dev/null | grep -q "^# Linux/[^ ]* ${BASE//./\\.}\.[0-9]" ||
		rm -f "$out/.config-key"
	[ "$(cat "$out/.config-key" 2>/dev/null)" = "$key" ] && return
	echo "kernel: configuring $(kname "$arch" "$flavor")"
	if [ -n "$start_from" ]; then
		xzcat "$start_from" > "$out/.config"
	else
		kmake -s tinyconfig >/dev/null
	fi
	KCONFIG_CONFIG="$out/.config" "$src/scripts/kconfig/merge_config.sh" \
		-m -O "$out" "$out/.config" $frags > "$out/merge_config.log" 2>&1
	kmake -s olddefconfig >/dev/null 2>&1
	# Every option the fragments ask for (the last fragment to name it
	# wins) must have survived olddefconfig.
	local bad=0 line opt want got
	while read -r line; do
		opt=${line%%=*}; want=${line#*=}
		got=$(grep -E "^$opt=|^# $opt is not set" "$out/.config" | head -n1 || true)
		case "$want" in
		n) [ -z "$got" ] || [ "${got#\# }" != "$got" ] || { echo "  $opt: wanted n, got $got"; bad=1; } ;;
		*) [ "$got" = "$opt=$want" ] || { echo "  $opt: wanted $want, got ${got:-unset}"; bad=1; } ;;
		esac
	done < <(cat $frags | last_values)
	[ $bad = 0 ] || die "config fragments not satisfied for $(kname "$arch" "$flavor")"
	echo "$key" > "$out/.config-key"
}

# One kernel.sh at a time in a build directory: the pristine base, the
# ours tree and the build directories are shared (a second caller waits,
# then finds the work done).
mkdir -p "$build"
exec 9> "$build/.kernel.lock"
flock 9
unpack_base
[ -n "${unpack_only:-}" ] && exit 0
ver=$(base_version)
echo "kernel: base Linux $ver ($arch, $flavor)"
[ "$ver" = "$verified_version" ] ||
	echo "kernel: WARNING: base is $ver, the project was last verified on $verified_version" >&2

[ "$flavor" = wip ] && wip_series=wip.series
if [ "$flavor" != upstream ]; then prepare_ours; else src=$base; fi
[ -n "${prepare_only:-}" ] && exit 0
out=$(kdir "$arch" "$flavor")
mkdir -p "$out"
export KBUILD_BUILD_TIMESTAMP='2026-01-01' KBUILD_BUILD_USER=ftrace KBUILD_BUILD_HOST=harness

configure
start=$(date +%s)
name=$(kname "$arch" "$flavor")
mlog="$build/logs/make-$name.log"
mkdir -p "$build/logs"
if [ -n "${OBJS_ONLY:-}" ]; then
	adir=${image%%/boot/*}/kernel/
	echo "kernel: compiling kernel/trace/ and $adir of $name (make's output: ${mlog#"$top"/})"
	kmake -s -j"${JOBS:-3}" kernel/trace/ "$adir" > "$mlog" 2>&1 ||
		{ tail -n 40 "$mlog"; die "make failed for $name's core directories"; }
	grep -E 'warning:|WARNING:' "$mlog" | head -n 40 || true
	echo "kernel: compiled $name's core directories in $(( $(date +%s) - start )) s"
	exit 0
fi
# make's own output goes to a log; a line a minute says how far it got
# (a cold build takes minutes), then its warnings are shown.
stamp="$out/.build-start"
touch "$stamp"
echo "kernel: compiling $name with ${JOBS:-3} jobs (make's output: ${mlog#"$top"/})"
kmake -s -j"${JOBS:-3}" "$(basename "$image")" modules > "$mlog" 2>&1 &
mpid=$!
last=$start
while kill -0 "$mpid" 2> /dev/null; do
	sleep 2
	now=$(date +%s)
	if [ $((now - last)) -ge "${PROGRESS_EVERY:-60}" ]; then
		last=$now
		echo "kernel: $name: $((now - start)) s, $(find "$out" -name '*.o' -newer "$stamp" | wc -l) objects compiled so far"
	fi
done
rc=0
wait "$mpid" || rc=$?
grep -E 'warning:|WARNING:' "$mlog" | head -n 40 || true
if [ $rc != 0 ]; then
	tail -n 40 "$mlog"
	die "make failed for $name after $(( $(date +%s) - start )) s (log: ${mlog#"$top"/})"
fi
echo "kernel: installing $name's modules"
rm -rf "$out/modroot"
kmake -s INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 modules_install >> "$mlog" 2>&1 ||
	{ tail -n 20 "$mlog"; die "modules_install failed for $name"; }
echo "kernel: built $name in $(( $(date +%s) - start )) s: $out/$image"
