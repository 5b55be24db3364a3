# Shared settings for the harness scripts. Source it; it defines no behaviour.
# shellcheck shell=bash
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$top/build"
# BASE picks the Debian kernel source the kernels are built from: 6.1
# (Debian 12's linux-source-6.1, the default) or 6.12 (linux-source-6.12;
# the ours flavor there is x86_64 and arm64, not 32-bit arm).  Each base has its own
# unpacked tree, verified version (harness/BASE_VERSION,
# harness/BASE_VERSION-6.12), patch series (patches/series,
# patches/6.12/series: $pdir), config overrides (configs/BASE/),
# expectations (expectations/BASE/) and build names (kname).
# set_base B: the settings of base B (make check runs both bases, a
# stream each, switching base in its subshell).
set_base() {
	case "$1" in
	6.1|6.12) ;;
	*) echo "$(basename "$0"): BASE must be 6.1 or 6.12, not '$1'" >&2; exit 1 ;;
	esac
	BASE=$1
	export BASE
	base_tar=/usr/src/linux-source-$BASE.tar.xz
	base="$build/base/linux-source-$BASE"	# pristine, never written after unpacking
	if [ "$BASE" = 6.1 ]; then
		verified_version=$(cat "$top/harness/BASE_VERSION")
		# Where the recorded results of the unmodified kernel live.
		expdir="$top/expectations"
		# Appended to every build name (kname): none for 6.1.
		base_suffix=
		# The series for this base: patches/series (the 6.1 backport).
		pdir="$top/patches"
	else
		verified_version=$(cat "$top/harness/BASE_VERSION-$BASE")
		expdir="$top/expectations/$BASE"
		base_suffix=-$BASE
		pdir="$top/patches/$BASE"
	fi
}
set_base "${BASE:-6.1}"
# VARIANT=clang builds with Debian 12's LLVM 16 from here.
llvm=/usr/lib/llvm-16/bin/
# Every compile of the harness goes through one ccache; paths under the
# repository are hashed relative to it, so clones share hits.
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache} CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export CCACHE_BASEDIR=$top
# Depend mode: a miss runs the compiler once, taking the headers from the
# dependency file kbuild asks for (-Wp,-MMD), instead of running the
# preprocessor first to hash its output (which made a cold build about a
# quarter slower); hits are found as before, by the sources and headers.
export CCACHE_DEPEND=${CCACHE_DEPEND:-true}
# Top-level kernel directories the repository overlays file by file.
overlay_dirs="arch Documentation include kernel lib scripts tools"

die() { echo "$(basename "$0"): $*" >&2; exit 1; }

# only_base_61: a script whose recorded results are 6.1's only stops on
# another base rather than judge it against them (or overwrite them).
only_base_61() {
	[ "$BASE" = 6.1 ] || die "runs on BASE=6.1 only: its recorded results are Linux 6.1's"
}

check_arch() {
	case "$1" in
	x86_64) karch=x86_64; image=arch/x86/boot/bzImage; cross= ;;
	arm64) karch=arm64; image=arch/arm64/boot/Image; cross=aarch64-linux-gnu- ;;
	# 32-bit arm: built, booted and smoke-tested only (harness/smoke.sh).
	arm) karch=arm; image=arch/arm/boot/zImage; cross=arm-linux-gnueabihf- ;;
	*) die "ARCH must be x86_64, arm64 or arm, not '$1'" ;;
	esac
}

# toolchain: set tc, kbuild's compiler arguments for $karch/$cross
# (check_arch): gcc, or with VARIANT=clang Debian 12's LLVM 16 (kCFI needs
# clang 16), whose LLVM=prefix picks clang, ld.lld and the binutils;
# ld.lld through harness/lld-cache.sh, which keeps ThinLTO's code
# generation between builds.  Host tools are gcc either way.  Out-of-tree
# modules take the kernel's.
toolchain() {
	if [ "${VARIANT:-}" = clang ]; then
		tc=(LLVM="$llvm" CC="ccache ${llvm}clang" LD="$top/harness/lld-cache.sh"
		    HOSTCC="ccache gcc")
	else
		tc=(CROSS_COMPILE="$cross" CC="ccache ${cross}gcc" HOSTCC="ccache gcc")
		# Debian's cross nm and ar (binutils 2.40) load every plugin in
		# /usr/lib/bfd-plugins, LLVM's gold plugins among them, for each
		# object: 170 ms an nm against 15 ms, and 6.1's kbuild runs nm
		# on every object (check-local-export).  Named plugin: only gcc's.
		local plugin
		[ -z "$cross" ] || plugin=$("${cross}gcc" -print-file-name=liblto_plugin.so)
		if [ -n "$cross" ] && [ -f "$plugin" ]; then
			tc+=(NM="${cross}nm --plugin $plugin" AR="${cross}ar --plugin $plugin")
		fi
	fi
}

# FLAVOR-debug (ours-debug, upstream-debug) is FLAVOR built with
# VARIANT=debug (configs/variant-debug.config: KASAN, lockdep, ...); the
# caller's $flavor becomes the plain FLAVOR.
check_flavor() {
	case "$1" in
	*-debug) export VARIANT=debug; flavor=${1%-debug} ;;
	esac
	case "${1%-debug}" in
	ours|upstream|wip) ;;
	*) die "FLAVOR must be ours, upstream or wip (or FLAVOR-debug), not '$1'" ;;
	esac
	# The core's port to 6.12 covers x86_64 and arm64, not 32-bit arm.
	if [ "$BASE" != 6.1 ] && [ "${1%-debug}" != upstream ] &&
	   [ "${arch:-x86_64}" = arm ]; then
		die "FLAVOR=${1%-debug} builds on Linux $BASE for x86_64 and arm64 only"
	fi
}

# kname ARCH FLAVOR: the name of one kernel build, "ARCH-FLAVOR", with
# "-VARIANT" appended when VARIANT is set (configs/variant-VARIANT.config is
# then the last config fragment: e.g. VARIANT=nodyn, DYNAMIC_FTRACE=n), and
# "-BASE" when BASE is not 6.1 (x86_64-upstream-6.12).  Build directories,
# logs, initramfs archives and module builds are all named by it.
kname() { echo "$1-$2${VARIANT:+-$VARIANT}$base_suffix"; }

# kdir ARCH FLAVOR: the out-of-tree build directory of one kernel.
kdir() { echo "$build/kernel/$(kname "$1" "$2")"; }

# debian_config: for VARIANT=debian, debian-full and debian-rt, Debian's own
# x86_64 config of the base (package linux-config-BASE), which the build
# starts from instead of tinyconfig: the cloud kernel's (cloud-amd64, about
# 1,100 modules) or the generic one's (amd64, about 3,800).  debian-rt is
# the realtime flavour on the cloud kernel's drivers: cloud-amd64, then
# what Debian's rt_amd64 config sets differently from its amd64 one
# (debian_rt_delta); it needs PREEMPT_RT in-tree (6.12; Debian 12's 6.1
# source has no rt patches applied).  Nothing for other variants.
debian_config() {
	local c
	case "${VARIANT:-}" in
	debian|debian-rt) c=amd64_none_cloud-amd64 ;;
	debian-full) c=amd64_none_amd64 ;;
	*) return 0 ;;
	esac
	echo "/usr/src/linux-config-$BASE/config.$c.xz"
}

# debian_rt_delta: the realtime flavour's own lines, as a config fragment
# (VARIANT=debian-rt): each option line of Debian's rt_amd64 config that
# its generic amd64 config has not (PREEMPT_RT, the RCU boosting, the
# latency tracers, ...).  What amd64 alone has follows from them
# (olddefconfig drops what PREEMPT_RT excludes).  Options the base's
# Kconfig does not define (Debian's rt patches add PREEMPT_LAZY to 6.12;
# linux-source has none of them) are left out, and named on stderr.
debian_rt_delta() {
	local d="/usr/src/linux-config-$BASE" f known delta
	for f in amd64_none_amd64 amd64_rt_amd64; do
		[ -f "$d/config.$f.xz" ] || die "no $d/config.$f.xz (make setup installs linux-config-$BASE)"
	done
	grep -q '^config PREEMPT_RT$' "$base/kernel/Kconfig.preempt" &&
		grep -q 'select ARCH_SUPPORTS_RT' "$base/arch/x86/Kconfig" ||
		die "VARIANT=debian-rt: Linux $BASE has no PREEMPT_RT for x86 in-tree (BASE=6.12)"
	known=$(grep -rhoE --include='Kconfig*' '^[[:space:]]*(menu)?config[[:space:]]+[A-Za-z0-9_]+' "$base" |
		awk '{ print "CONFIG_" $2 }' | sort -u)
	delta=$(comm -13 <(xzcat "$d/config.amd64_none_amd64.xz" | grep -E '^(# )?CONFIG_' | sort) \
		 <(xzcat "$d/config.amd64_rt_amd64.xz" | grep -E '^(# )?CONFIG_' | sort) |
	awk 'FNR == NR { known[$0] = 1; next }
		{ opt = $0; sub(/^# /, "", opt); sub(/[= ].*/, "", opt) }
		opt in known { print; next }
		{ print "kernel: debian-rt: " opt " is not in this base, left out" > "/dev/stderr" }' \
		<(echo "$known") -)
	# (An unreadable config in a <(...) above fails nothing by itself.)
	grep -qx 'CONFIG_PREEMPT_RT=y' <<< "$delta" ||
		die "VARIANT=debian-rt: no PREEMPT_RT=y from Debian's rt config over its amd64 one"
	echo "$delta"
}

# config_fragments ARCH FLAVOR: the config fragments of one kernel build,
# in the order they are merged (a later one overrides an earlier one).
config_fragments() {
	local arch=$1 flavor=$2 frags
	# Debian's config is the start (debian_config); only what the tests
	# need goes on top of it: KUnit, the flavor's own suites, and
	# configs/variant-debian.config.
	if [ -n "$(debian_config)" ]; then
		[ "$arch" = x86_64 ] || die "VARIANT=$VARIANT: Debian's configs here are x86_64's"
		frags="$top/configs/kunit.config"
		if [ -f "$top/configs/$flavor.config" ]; then frags="$frags $top/configs/$flavor.config"; fi
		echo "$frags $top/configs/variant-debian.config"
		return
	fi
	frags="$top/configs/base.config $top/configs/tracing.config"
	frags="$frags $top/configs/kunit.config $top/configs/$arch.config"
	# Options only the flavor's own code has (its KUnit suites).
	if [ -f "$top/configs/$flavor.config" ]; then frags="$frags $top/configs/$flavor.config"; fi
	# ... and its arch's, which a base may replace (configs/BASE/).
	local own="$top/configs/$flavor-$arch.config"
	[ -f "$top/configs/$BASE/$flavor-$arch.config" ] && own="$top/configs/$BASE/$flavor-$arch.config"
	if [ -f "$own" ]; then frags="$frags $own"; fi
	# The distro fragment (in-tree ftrace users), for the arches that have
	# a configs/distro-ARCH.config; DISTRO=0 leaves it out.
	if [ "${DISTRO:-1}" != 0 ] && [ -f "$top/configs/distro-$arch.config" ]; then
		frags="$frags $top/configs/distro.config $top/configs/distro-$arch.config"
	fi
	# A build variant's fragment comes last and overrides the others.
	if [ -n "${VARIANT:-}" ]; then
		[ -f "$top/configs/variant-$VARIANT.config" ] || die "no configs/variant-$VARIANT.config"
		frags="$frags $top/configs/variant-$VARIANT.config"
		# ... and its part for this arch, if it has one.
		if [ -f "$top/configs/variant-$VARIANT-$arch.config" ]; then
			frags="$frags $top/configs/variant-$VARIANT-$arch.config"
		fi
	fi
	echo $frags
}

# rename_fragments DIR FRAG...: on a base with a configs/BASE/renames map,
# the fragments rewritten with it into DIR (emptied first), printed in
# their order: an option renamed, or dropped where the base has nothing
# for it.  On the others (6.1), the fragments themselves.
rename_fragments() {
	local dir=$1 map="$top/configs/$BASE/renames" f n=0 dst
	shift
	if [ ! -f "$map" ]; then echo "$@"; return; fi
	rm -rf "$dir"; mkdir -p "$dir"
	for f in "$@"; do
		n=$((n + 1))
		dst="$dir/$(printf %02d "$n")-$(basename "$f")"
		awk 'FNR == NR { if ($0 !~ /^#/ && NF == 2) to[$1] = $2; next }
			/^CONFIG_[A-Za-z0-9_]*=/ {
				opt = substr($0, 8, index($0, "=") - 8)
				if (opt in to) {
					if (to[opt] == "-") next
					$0 = "CONFIG_" to[opt] substr($0, index($0, "="))
				}
			}
			{ print }' "$map" "$f" > "$dst"
		echo "$dst"
	done
}
