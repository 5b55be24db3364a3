#!/usr/bin/env bash
# check.sh [full|debian]: everything `make check` runs, never stopping at
# the first failure; the last line is "N passed, N failed, N skipped".
# "debian" (make check-debian) runs only make check-full's kernels built
# from Debian's own configs (debian_step), one stream each, no host tests.
#
# Streams run side by side, each printing its lines with its name in
# front ([host], [arm64], [x86_64], [arm64-6.12], [x86_64-6.12], [arm]):
#   host    host tests (harness/tests, scripts/ tests when present), the
#           names of each base's ftrace.c that its tree uses
#           (harness/symbols.py), the spin models of the patch protocols
#           (harness/model.sh) and each base's patch series without its builds
#           (harness/series-check.sh, QUICK=1).
#   ARCH    for each base in BASES (6.1 and 6.12) and each arch in
#           ARCHES (x86_64 and arm64) that the run boots (STREAMS: make
#           check boots arm64 on 6.1 and x86_64 on 6.12; make
#           check-full, make check-612 and BASES=6.1 every pair of
#           their bases): wait for its kernel (FLAVOR, default ours;
#           KASLR and the distro fragment are in the default config),
#           boot it, and beside its first guest run sparse on the core's
#           files (harness/lint.sh) and build the porting skeleton:
#             1. KUnit, the tracers' boot self-tests and upstream's
#                ftracetest cases of that base (every directory of test.d
#                but ftrace-core; the CI subset of
#                expectations/ftt-subset.ARCH where one exists),
#                with available_filter_functions, judged against
#                the base's expectations/ ARCH.txt and functions.ARCH.txt;
#             2. the project's cases (test.d/ftrace-core) and the benchmark
#                program's smoke run;
#             3. the ftrace boot parameters (harness=bootcheck), and on
#                6.1 make diff's tracefs scenarios against what 6.1
#                printed (harness/diff.sh ARCH ours; ours only);
#             4. the livepatch selftests where expected;
#             5. make stress's short form (ours; on 6.12 only in make
#                check-612, which runs 6.12 alone).
#           A pair the run does not boot has its core's and back end's
#           directories compiled (kernel.sh OBJS_ONLY=1), sparse and W=1
#           on the core's files and the porting guide's skeleton built
#           against them.  arm64 on 6.1 then boots the kernel built
#           with clang 16 as Android builds it (VARIANT=clang): KUnit
#           and the core's cases.  With "full", each arch on 6.1 boots
#           its clang kernel, with every upstream case too; and x86_64
#           on 6.1 builds and boots the kernel without
#           DYNAMIC_FTRACE (VARIANT=nodyn), the one with the
#           frame-pointer unwinder (VARIANT=fp, one vCPU) and the one
#           built from Debian 12's own cloud-amd64 config
#           (VARIANT=debian: KUnit, upstream's and the core's cases,
#           every module loaded, traced and unloaded); x86_64 on 6.12
#           the same with Debian's rt flavour (VARIANT=debian-rt,
#           PREEMPT_RT).  The default x86_64 kernels have the distro
#           mitigations and IBT on (configs/distro-x86_64.config).
#   arm     for each arch in SMOKE_ARCHES (make check-full: arm; make
#           check: none): build, boot, smoke test (6.1).
# Then the layers of the core (harness/layers.py) in every kernel of ours
# built: no file refers to a file above it.
#
# The kernels build one after another in the background from the start, at
# the lowest CPU priority (the host stream's too), 6.1 before 6.12 and
# arm64 before x86_64
# (arm64's guests run longest, and the last kernel's stream is the run's
# tail); make check-full builds each arch's clang kernel right after its
# gcc one, make check arm64's after the other booted kernels; the pairs
# compiled only come last.  Each stream waits only for its own.  Every
# guest has a timeout of at least twice the time it was measured to take
# on a loaded 2-core machine
# (docs/testing.md, "CI"); a guest that uses more than half of it is listed
# at the end.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
# Only the queue's compile-only entries set it (kernel.sh OBJS_ONLY=1).
unset OBJS_ONLY
# BASES (default "6.1 6.12"): the bases whose kernels the run builds and
# boots, each arch stream on one base.  On 6.12 the streams are judged
# against stock 6.12 (expectations/6.12/) and have no make diff (its
# recorded output is 6.1's) or check-full variants but Debian's rt
# flavour (debian_step); with 6.1 beside it,
# 6.12's streams also leave make stress's short run to make check-612
# (BASES=6.12), which runs it.
full=${1:-}
case "$full" in ''|full|debian) ;; *) echo "check.sh: no mode '$full' (full or debian)" >&2; exit 1 ;; esac
bases=
for b in ${BASES:-6.1 6.12}; do
	(set_base "$b") || exit 1
	[[ " $bases " == *" $b "* ]] || bases="${bases:+$bases }$b"
done
[ -n "$bases" ] || { echo "check.sh: BASES names no base" >&2; exit 1; }
has_base() { [[ " $bases " == *" $1 "* ]]; }
# Kernel parameters of the boot-parameter check (core review, finding 9).
bootcheck_append='ftrace=function ftrace_filter=vfs_read,no_such_fn_xyz ftrace_notrace=no_such_fn_abc,vfs_write'
flavor=${FLAVOR:-ours}
results="$build/results"
rm -rf "$results"; mkdir -p "$results" "$build/logs"
SECONDS=0 run_start=0

# Guest timeouts in seconds, per arch and boot: at least 2.5 times what
# each took in a cold CI run on a 2-core machine (docs/testing.md, "CI": arm64
# 872 s and 547 s, x86_64 375 s and 215 s, bootcheck under 10 s, the
# livepatch selftests 92 s).  TIMEOUT overrides all the ftracetest ones.
declare -A ftt_timeout=([x86_64]=1200 [arm64]=2400)	# KUnit, upstream's cases
declare -A core_timeout=([x86_64]=900 [arm64]=1500)	# test.d/ftrace-core
declare -A diff_timeout=([x86_64]=600 [arm64]=900)	# make diff's scenarios
bootcheck_timeout=${BOOTCHECK_TIMEOUT:-600}
tools_timeout=${TOOLS_TIMEOUT:-600}
kselftest_timeout=${KSELFTEST_TIMEOUT:-900}
modload_timeout=${MODLOAD_TIMEOUT:-1800}	# harness=modload, Debian's config

# host_suite NAME CMD...: one host test command.  If its output ends with
# "N passed, N failed, N skipped" those are its counts; otherwise its exit
# status is one result.  A non-zero exit is always at least one failure.
host_suite() {
	local name=$1 log="$build/logs/host-$1.log" rc=0 p=1 f=0 s=0 last t0=$SECONDS
	shift
	"$@" > "$log" 2>&1 || rc=$?
	t0=$((SECONDS - t0))
	last=$(tail -n 1 "$log")
	if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]]; then
		p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]} s=${BASH_REMATCH[3]}
	fi
	if [ $rc != 0 ] && [ "$f" = 0 ]; then p=0 f=1; fi
	if [ $rc = 0 ] && [ "$f" = 0 ]; then
		echo "ok   host: $name ($p passed, $s skipped, $t0 s)"
	else
		echo "FAIL host: $name ($t0 s; log: build/logs/host-$name.log)"
		tail -n 20 "$log" | sed 's/^/     | /'
	fi
	printf 'passed %s\nfailed %s\nskipped %s\n' "$p" "$f" "$s" > "$results/host-$name"
}

# fail_result NAME WHY: one failure for NAME.
fail_result() {
	echo "FAIL $1: $2"
	printf 'passed 0\nfailed 1\nskipped 0\n' > "$results/$1"
}

for b in $bases; do
	BASE=$b "$top/harness/kernel.sh" unpack > "$build/logs/unpack-$b.log" 2>&1 ||
		tail "$build/logs/unpack-$b.log"
done

# The kernels of the run, built in the background one after another at the
# lowest CPU priority, which the host stream shares: the builds and the
# host's tests take the CPU time that the guests leave, and each stream
# waits only for its own kernel (wait_kernel).  Logs:
# build/logs/kernel-NAME.log.
arches=${ARCHES:-x86_64 arm64}
has_arch() { [[ " $arches " == *" $1 "* ]]; }
bq="$build/buildq"
rm -rf "$bq"; mkdir -p "$bq"
# Each spec is BASE:ARCH:NAME:VARIANT; the order is the order of the
# builds: base by base, arm64 first (its guests run longest), then
# x86_64, other arches, check-full's variants and the smoke-tested arches
# (32-bit arm, check-full only unless SMOKE_ARCHES says otherwise).
# The base and arch pairs booted (STREAMS, "BASE:ARCH ..."): make
# check-full and a run of one base boot every pair; make check, which
# must build cold within CI's time on a 2-core machine (docs/testing.md,
# "CI"), boots arm64 on 6.1 and x86_64 on 6.12, one back end of each arch
# and each base, and of the other two pairs compiles the core's and the
# back end's directories only (variant "objs", at the end of the queue),
# with sparse and W=1 on the core's files.
# Any other flavor than ours, or a run of one base or one arch, boots
# every pair it has.
streams=${STREAMS:-}
if [ -z "$streams" ]; then
	if [ "$full" = full ] || [ "$flavor" != ours ] || ! has_base 6.1 ||
	   ! has_base 6.12 || ! has_arch x86_64 || ! has_arch arm64; then
		streams=all
	else
		streams="6.1:arm64 6.12:x86_64"
	fi
fi
for pair in $streams; do
	[ "$pair" = all ] && continue
	[[ $pair =~ ^(6\.1|6\.12):(x86_64|arm64)$ ]] || die "STREAMS: $pair is not BASE:ARCH (6.1 or 6.12; x86_64 or arm64)"
done
booted() { [ "$streams" = all ] || [[ " $streams " == *" $1:$2 "* ]]; }
# has_clang BASE ARCH: the run builds and boots ARCH on BASE built with
# clang as Android builds it: on 6.1, arm64 (the Android shape) in make
# check, x86_64 too in make check-full; not 32-bit arm.
has_clang() {
	[ "$1" = 6.1 ] || return 1
	case "$2" in
	arm64) ;;
	x86_64) [ "$full" = full ] ;;
	*) false ;;
	esac
}
specs='' objs='' late=''
for b in $bases; do
	set_base "$b"
	for arch in arm64 x86_64; do
		has_arch "$arch" || continue
		if ! booted "$b" "$arch"; then
			objs="$objs $b:$arch:$(kname "$arch" "$flavor"):objs"
			continue
		fi
		specs="$specs $b:$arch:$(kname "$arch" "$flavor"):"
		# Each arch on 6.1 built with clang as Android builds it, its
		# guests after that stream's: make check-full right after the
		# gcc kernel; make check arm64's only (the Android shape), once
		# the other booted kernels are built, as its guests follow the
		# longest stream's.
		if has_clang "$b" "$arch" && [ "$full" = full ]; then
			specs="$specs 6.1:$arch:$arch-$flavor-clang:clang"
		elif has_clang "$b" "$arch"; then
			late="$late 6.1:$arch:$arch-$flavor-clang:clang"
		fi
	done
	# Other arches (ARCHES=arm): 6.1 only, as the core's port to 6.12
	# covers x86_64 and arm64.
	for arch in $arches; do
		case "$arch" in arm64|x86_64) ;; *)
			[ "$b" = 6.1 ] && specs="$specs $b:$arch:$(kname "$arch" "$flavor"):" ;;
		esac
	done
done
specs="$specs$late"
set_base "${bases%% *}"
if [ "$full" = full ] && has_base 6.1 && has_arch x86_64 && booted 6.1 x86_64; then
	specs="$specs 6.1:x86_64:x86_64-$flavor-nodyn:nodyn 6.1:x86_64:x86_64-$flavor-fp:fp"
fi
# The kernels built from Debian's own configs (debian_step), last: the
# longest builds.  6.1's cloud-amd64 config; 6.12's rt flavour
# (PREEMPT_RT is in-tree there).  make check-debian builds them alone.
debian_specs=
for bv in 6.1:debian 6.12:debian-rt; do
	b=${bv%%:*} v=${bv#*:}
	has_base "$b" && has_arch x86_64 || continue
	[ "$full" = debian ] || { [ "$full" = full ] && booted "$b" x86_64; } || continue
	debian_specs="$debian_specs $b:x86_64:$(set_base "$b"; VARIANT=$v kname x86_64 "$flavor"):$v"
done
smoke_arches=
if [ "$full" = full ] && has_base 6.1; then smoke_arches=arm; fi
smoke_arches=${SMOKE_ARCHES-$smoke_arches}
has_base 6.1 || smoke_arches=
if [ "$full" = debian ]; then smoke_arches='' specs=''; fi
for arch in $smoke_arches; do specs="$specs 6.1:$arch:$(set_base 6.1; kname "$arch" "$flavor"):"; done
[ "$full" = debian ] || specs="$specs$objs"
specs="$specs $debian_specs"
(
	for spec in $specs; do
		IFS=: read -r b arch name variant <<< "$spec"
		only=
		[ "$variant" = objs ] && variant='' only=1
		BASE=$b VARIANT=$variant OBJS_ONLY=$only nice -n 19 "$top/harness/kernel.sh" "$arch" "$flavor" \
			> "$build/logs/kernel-$name.log" 2>&1
		echo $? > "$bq/$name.rc.tmp" && mv "$bq/$name.rc.tmp" "$bq/$name.rc"
	done
) &
bq_pid=$!
# wait_kernel NAME: wait for the background build of NAME, saying every
# five minutes how far it got; true if it built.
wait_kernel() {
	local t=0
	while [ ! -f "$bq/$1.rc" ] && kill -0 "$bq_pid" 2>/dev/null; do
		sleep 5; t=$((t + 5))
		[ $((t % 300)) = 0 ] &&
			echo "   waiting for the kernel $1 ($t s): $(grep '^kernel:' "$build/logs/kernel-$1.log" 2>/dev/null | tail -n 1)"
	done
	[ "$(cat "$bq/$1.rc" 2>/dev/null)" = 0 ]
}
# kernel_built NAME RESULT: the background build of NAME ended well;
# otherwise one failure RESULT, with the end of its build log.
kernel_built() {
	if ! wait_kernel "$1"; then
		tail -n 30 "$build/logs/kernel-$1.log"
		fail_result "$2" "kernel build (log: build/logs/kernel-$1.log)"
		return 1
	fi
	grep -E 'WARNING|built|compiled' "$build/logs/kernel-$1.log"
}
# kernel_ready NAME [VARIANT]: the kernel NAME built and its initramfs made;
# otherwise one failure for NAME, with the end of its build log.
kernel_ready() {
	local name=$1 arch=${1%%-*}
	kernel_built "$name" "$name" || return 1
	VARIANT=${2:-} "$top/harness/initramfs.sh" "$arch" "$flavor" > /dev/null ||
		{ fail_result "$name" initramfs; return 1; }
}

# boot_guest TRIES NAME LOG PATTERN CMD...: run CMD (a harness/qemu.sh
# boot that logs its console to LOG), show the console lines that match
# PATTERN as they come, and copy LOG to build/logs/check-NAME.log (empty if
# QEMU wrote none, which the judge fails).  With TRIES=2 a guest that did
# not finish is booted once more: on x86_64, QEMU 7.2's TCG now and then
# livelocks while the kernel patches text (seen on the unmodified kernel
# too: a CPU trapping on the same int3 forever, then an RCU stall).  The
# first attempt stays visible as a skip with its log; a second failure is
# judged like any other run.  The guest's time against its timeout goes to
# build/logs/guest-times.
boot_guest() {
	local tries=$1 name=$2 log=$3 pattern=$4 try out
	shift 4
	out="$build/logs/check-$name.log"
	for try in $(seq "$tries"); do
		rm -f "$log"
		"$@" 2>&1 | grep --line-buffered -aE "$pattern" | sed -u 's/^/   | /'
		cp "$log" "$out" 2>/dev/null || : > "$out"
		sed -n "s/^qemu: ran \([0-9]*\) s of a \([0-9]*\) s timeout/$name \1 \2/p" "$out" \
			>> "$build/logs/guest-times"
		grep -q '^HARNESS: done' "$out" && return
		[ "$try" = "$tries" ] && return
		mv "$out" "$build/logs/check-$name.try1.log"
		echo "skip $name: first boot did not finish; booting again (log: build/logs/check-$name.try1.log)"
		printf 'passed 0\nfailed 0\nskipped 1\n' > "$results/$name-try1"
	done
}
# The console lines shown as a guest runs: ftracetest's own result lines,
# or the KTAP results of the other guest scripts; and the harness's.
ftt_pattern='^\[[0-9]+\].*\[[A-Z]+\]$|^(HARNESS|qemu):'
ktap_pattern='^( *(not )?ok [0-9]+ |(HARNESS|qemu):)'

# guest_run NAME TRIES MODE FTT [VAR=VALUE...] -- JUDGE...: every boot of
# make check.  Boots the kernel of NAME's arch (FLAVOR; VARIANT= in the
# VAR=VALUE list picks a variant's build) in guest mode MODE with
# ftracetest cases FTT (may be empty) and the VAR=VALUE settings of
# harness/qemu.sh (TIMEOUT, KUNIT, APPEND, ...), through boot_guest (TRIES,
# build/logs/check-NAME.log, guest-times), then judges it with
# "check.py JUDGE... --name NAME --log LOG --results DIR".
guest_run() {
	local name=$1 tries=$2 mode=$3 ftt=$4 arch=${1%%-*} envs=() variant='' logname='' start pattern
	shift 4
	while [ "$1" != -- ]; do
		envs+=("$1")
		case "$1" in VARIANT=*) variant=${1#VARIANT=} ;; QEMU_LOG_NAME=*) logname=${1#*=} ;; esac
		shift
	done
	shift
	pattern=$ktap_pattern
	[ "$mode" = ftracetest ] && pattern=$ftt_pattern
	start=$(date +%s)
	boot_guest "$tries" "$name" \
		"$build/logs/$(VARIANT=$variant kname "$arch" "$flavor")-${logname:-$mode}.log" "$pattern" \
		env "${envs[@]}" "$top/harness/qemu.sh" "$arch" "$flavor" "$mode" ${ftt:+"$ftt"}
	echo "   guest ran $(( $(date +%s) - start )) s; console: build/logs/check-$name.log"
	python3 "$top/harness/check.py" "$@" --name "$name" \
		--log "$build/logs/check-$name.log" --results "$results"
}

host_stream() {
	local b
	# At the builds' priority: the first kernel, whose guests are the
	# run's longest chain, waits for its build, and the host's tests wait
	# for nothing (docs/testing.md, "CI").
	renice -n 19 -p "$BASHPID" > /dev/null
	host_suite harness-check python3 "$top/harness/tests/run.py"
	# Every name of each base's ftrace.c that the rest of its tree uses
	# is ours too.
	for b in $bases; do
		set_base "$b"
		host_suite "ftrace-symbols$base_suffix" python3 "$top/harness/symbols.py" "$base" "$top"
	done
	set_base "${bases%% *}"
	# The patch protocols, model-checked by spin (harness/model/, about a
	# minute).
	host_suite model "$top/harness/model.sh"
	local t
	for t in "$top"/scripts/tests/run.sh; do
		[ -x "$t" ] && host_suite recordmcount "$t"
	done
	# Each base's patch series (series/, series/6.12/): every file placed,
	# the last patch's tree the one built here, checkpatch --strict on
	# every patch, maintainers and boot parameters (make series-check also
	# applies it with git am and builds every step).
	for b in $bases; do
		set_base "$b"
		host_suite "series$base_suffix" env QUICK=1 "$top/harness/series-check.sh"
	done
	set_base "${bases%% *}"
}

# arch_stream BASE ARCH: every step of one kernel of the run.
arch_stream() {
	local arch=$2 name ftt subset
	set_base "$1"
	name=$(kname "$arch" "$flavor")
	echo "== $name: kernel"
	# Without its gcc kernel the stream still boots its clang one, which
	# the queue builds either way.
	kernel_ready "$name" || { clang_step "$arch"; return; }
	# Beside the first guest (its kernel is linked; they compile objects
	# of its build directory again, nothing that boots): sparse on the
	# core's files of this build (harness/lint.sh), and the porting
	# guide's skeleton back end compiled against this tree (W=1),
	# checkpatch and kernel-doc clean (harness/skeleton.sh).
	local lint_pid=
	if [ "$flavor" = ours ]; then
		{
			host_suite "sparse-$arch$base_suffix" nice -n 10 "$top/harness/lint.sh" "$arch"
			host_suite "skeleton-$arch$base_suffix" nice -n 10 "$top/harness/skeleton.sh" "$arch"
		} &
		lint_pid=$!
	fi

	# 1. KUnit, the boot self-tests and upstream's cases (every directory
	# of test.d but ftrace-core).
	subset='' ftt=upstream
	if [ "$full" != full ] && [ -f "$expdir/ftt-subset.$arch" ]; then
		ftt=$(grep -v '^#' "$expdir/ftt-subset.$arch" | paste -sd, || true)
		subset=--subset
		[ -n "$ftt" ] || { ftt=upstream; subset=; }
	fi
	echo "== $name: KUnit, boot self-tests and ftracetest $ftt"
	guest_run "$name" 2 ftracetest "$ftt" KUNIT=1 APPEND=ftt_bench=0 \
		TIMEOUT="${TIMEOUT:-${ftt_timeout[$arch]:-1800}}" -- \
		judge --kunit $subset --expect "$expdir/$arch.txt" \
		--functions "$expdir/functions.$arch.txt"
	[ -z "$lint_pid" ] || wait "$lint_pid"

	# 2. The project's cases of the core (harness/ftt), every one of which
	# must run and pass, and the benchmark program's smoke run.
	echo "== $name: ftracetest test.d/ftrace-core"
	guest_run "$name-core" 2 ftracetest test.d/ftrace-core KUNIT=0 APPEND=ftt_functions=0 \
		TIMEOUT="${TIMEOUT:-${core_timeout[$arch]:-1200}}" QEMU_LOG_NAME=core -- \
		judge --subset --expect "$expdir/$arch.txt" \
		--bench-smoke --core-cases "$top/harness/ftt"

	# 3. What the ftrace boot parameters set up, with a bad word in each
	# list (harness/guest/bootcheck.sh).
	echo "== $name: boot parameters"
	guest_run "$name-bootcheck" 1 bootcheck '' APPEND="$bootcheck_append" KUNIT=0 \
		TIMEOUT="$bootcheck_timeout" -- guest --doc bootcheck --what "boot parameters"

	# 3b. make diff's scenarios on our kernel, against what 6.1 printed
	# (expectations/diff.ARCH.txt; harness/diff.sh).
	if [ "$flavor" = ours ] && [ "$BASE" = 6.1 ] && [ -f "$expdir/diff.$arch.txt" ]; then
		echo "== $name: tracefs scenarios against 6.1 (make diff)"
		DIFF_BUILT=1 RESULTS="$results" TIMEOUT="${diff_timeout[$arch]}" \
			"$top/harness/diff.sh" "$arch" ours > "$build/logs/check-$name-diff.log" 2>&1 || true
		grep -v '^ok ' "$build/logs/check-$name-diff.log" | sed 's/^/   /'
		echo "   $(grep -c '^ok ' "$build/logs/check-$name-diff.log") passed; all: build/logs/check-$name-diff.log"
		sed -n "s/^qemu: ran \([0-9]*\) s of a \([0-9]*\) s timeout/$name-diff \1 \2/p" \
			"$build/logs/$arch-$flavor-diff.log" >> "$build/logs/guest-times"
	fi

	# 4. The kernel's selftests of in-tree ftrace users (livepatch), where
	# upstream's results were measured (expectations/kselftest.ARCH.txt).
	if [ -f "$expdir/kselftest.$arch.txt" ]; then
		echo "== $name: kselftests of in-tree users"
		guest_run "$name-kselftest" 2 kselftest '' KUNIT=0 TIMEOUT="$kselftest_timeout" -- \
			kselftest --expect "$expdir/kselftest.$arch.txt"
	fi

	# 4b. The tools people trace with, in their short run on our kernel:
	# bpftrace's kprobes and kprobe_multi wildcards, its listing, bpftool,
	# cyclictest while the function tracer toggles (harness/guest/tools.sh;
	# make check-tools runs the whole set against the unmodified kernel).
	if [ "$flavor" = ours ]; then
		echo "== $name: the tools people trace with (short)"
		if "$top/harness/tools-initramfs.sh" "$arch" "$flavor" > "$build/logs/tools-initramfs-$name.log" 2>&1; then
			guest_run "$name-tools" 2 tools '' TOOLS=1 KUNIT=0 APPEND=tools_short=1 \
				TIMEOUT="$tools_timeout" -- guest --doc tools --what tools
		else
			tail -n 5 "$build/logs/tools-initramfs-$name.log" | sed 's/^/   /'
			printf 'passed 0\nfailed 1\nskipped 0\n' > "$results/$name-tools"
		fi
	fi

	# 5. make stress's short form on our kernel: tracers, filters,
	# instances and modules churning under load, then malformed writes
	# (harness/stress.sh).  Upstream's baseline is in docs/testing.md.
	# On 6.12 only when 6.1 is not in the run (make check-612).
	if [ "$flavor" = ours ] && { [ "$BASE" = 6.1 ] || ! has_base 6.1; }; then
		echo "== $name: stress (short)"
		host_suite "stress-$name" env STRESS_BUILT=1 "$top/harness/stress.sh" "$arch" "$flavor" short
		grep -E '^(ok|FAIL|     stress|stress:)' "$build/logs/host-stress-$name.log" | sed 's/^/   /'
	fi
	[ "$arch" = x86_64 ] && [ "$full" = full ] && [ "$BASE" = 6.1 ] && x86_64_variants
	[ "$arch" = x86_64 ] && [ "$full" = full ] && [ "$BASE" = 6.12 ] && debian_step debian-rt
	clang_step "$arch"
}

# clang_step ARCH: the stream's clang kernel, where the queue has one.
clang_step() {
	if has_clang "$BASE" "$1"; then clang_kernel "$1"; fi
}

# objs_stream BASE ARCH: a pair make check does not boot: its core and
# back end directories compile (kernel.sh OBJS_ONLY=1), sparse and W=1
# are clean on the core's files, and the porting guide's skeleton builds.
objs_stream() {
	local arch=$2 name
	set_base "$1"
	name=$(kname "$arch" "$flavor")
	echo "== $name: the core's directories only (not booted in make check)"
	kernel_built "$name" "$name-objs" || return
	printf 'passed 1\nfailed 0\nskipped 0\n' > "$results/$name-objs"
	# (Only ours is compiled without a boot: see "streams".)
	host_suite "sparse-$arch$base_suffix" "$top/harness/lint.sh" "$arch"
	host_suite "skeleton-$arch$base_suffix" "$top/harness/skeleton.sh" "$arch"
}

# The kernel built with clang 16 as Android and ChromeOS build it
# (VARIANT=clang: ThinLTO and kCFI; on arm64 also shadow call stacks,
# kernel BTI and pointer authentication; x86_64 keeps the default
# config's IBT, retpolines and return thunks), judged against stock 6.1
# built the same way (expectations/ARCH-clang.txt and
# functions.ARCH-clang.txt: VARIANT=clang make expectations ARCH=ARCH;
# clang inlines other functions than gcc; without an ARCH-clang.txt,
# upstream's cases are a skip and KUnit runs with the core's cases).
# make check-full: KUnit, every upstream case and the function list,
# then the core's cases (callers, trampolines, direct calls,
# fprobe, kprobe_multi through BPF, stack traces, function_graph).  The
# alias case may have no input: without LTO, clang's arm64 image has no C
# function with a second name at its address (with ThinLTO it runs).
clang_kernel() {
	local arch=$1 name="$1-$flavor-clang" kunit=(--kunit) what
	local expect="$top/expectations/$1-clang.txt" functions="$top/expectations/functions.$1-clang.txt"
	what="clang 16, ThinLTO, kCFI, shadow call stacks, BTI"
	[ "$arch" = x86_64 ] && what="clang 16, ThinLTO, kCFI, IBT"
	echo "== $name: $what"
	kernel_ready "$name" clang || return
	if [ "$full" = full ] && [ -f "$expect" ]; then
		echo "== $name: KUnit, boot self-tests and ftracetest upstream"
		guest_run "$name" 2 ftracetest upstream VARIANT=clang KUNIT=1 APPEND=ftt_bench=0 \
			TIMEOUT="${TIMEOUT:-${ftt_timeout[$arch]}}" -- \
			judge --kunit --expect "$expect" --functions "$functions"
		kunit=()
	elif [ "$full" = full ]; then
		echo "skip $name: upstream's cases: no ${expect#"$top"/} (VARIANT=clang make expectations ARCH=$arch)"
		printf 'passed 0\nfailed 0\nskipped 1\n' > "$results/$name-upstream"
		expect="$top/expectations/$arch.txt"
	fi
	echo "== $name: ${kunit:+KUnit and }ftracetest test.d/ftrace-core"
	guest_run "$name-core" 2 ftracetest test.d/ftrace-core VARIANT=clang KUNIT=${#kunit[@]} \
		APPEND="ftt_functions=0 ftt_bench=0" TIMEOUT="${TIMEOUT:-${core_timeout[$arch]}}" QEMU_LOG_NAME=core -- \
		judge "${kunit[@]}" --subset --expect "$expect" \
		--core-cases "$top/harness/ftt" \
		--unsupported-ok 'ftrace-core: an exact name selects a function only by the name it prints as'
}

# make check-full only: x86_64 without DYNAMIC_FTRACE, and with the frame-
# pointer unwinder.
x86_64_variants() {
	# The function tracer without dynamic ftrace (VARIANT=nodyn): one
	# short boot (harness/guest/nodyncheck.sh).
	local name="x86_64-$flavor-nodyn" fpcases
	echo "== $name: kernel without DYNAMIC_FTRACE, and one boot"
	kernel_ready "$name" nodyn &&
		guest_run "$name" 1 nodyncheck '' VARIANT=nodyn KUNIT=0 TIMEOUT="$bootcheck_timeout" -- \
			guest --doc nodyncheck --what "no dynamic ftrace"
	# The x86_64 callers with the frame-pointer unwinder instead of ORC
	# (VARIANT=fp): the cases whose stack traces, registers and direct
	# calls go through the callers' frame records, judged against the same
	# expectations.  Not the livepatch cases: without ORC, x86 has no
	# reliable stack traces.  One vCPU: the x86 back end's patch protocol
	# then runs with the writing CPU alone, taking the INT3s of its own
	# interrupts.
	name="x86_64-$flavor-fp"
	echo "== $name: frame-pointer unwinder, stack and caller cases, one vCPU"
	fpcases=test.d/ftrace,test.d/ftrace-core/caller-regs.tc
	fpcases=$fpcases,test.d/ftrace-core/caller-unwind.tc,test.d/ftrace-core/direct-samples.tc
	kernel_ready "$name" fp &&
		guest_run "$name" 2 ftracetest "$fpcases" VARIANT=fp KUNIT=0 SMP=1 \
			APPEND="ftt_functions=0 ftt_bench=0" TIMEOUT="${TIMEOUT:-${ftt_timeout[x86_64]}}" -- \
			judge --subset --nproc 1 --expect "$top/expectations/x86_64.txt"
	debian_step debian
}

# The core's cases whose feature Debian's 6.1 config leaves out: FPROBE
# (and with it BPF's kprobe_multi) and FUNCTION_PROFILER.  6.12's rt
# config has FPROBE, but not the fprobe sample that two of them load.
debian_unsupported=()
for c in "BPF kprobe_multi programs see their function's address and cookie" \
	 'fprobe exit handlers and kretprobes on one return hook' \
	 'fprobe sample by names and by glob' \
	 'the function profiler and function_graph exclude each other (EBUSY)' \
	 "BPF kprobe_multi by a module function's name: refused on 6.1, holds the module on 6.12" \
	 'kprobe_multi links and BPF trampolines come and go while modules load and the function tracer toggles'; do
	debian_unsupported+=(--unsupported-ok "ftrace-core: $c")
done

# make check-full and make check-debian: x86_64 built from one of
# Debian's own configs (harness/lib.sh: debian_config), judged against the stock kernel of the
# base built the same way (expectations/[BASE/]x86_64-VARIANT.txt:
# VARIANT=... make expectations ARCH=x86_64; until it is recorded,
# upstream's cases are a skip and KUnit runs with the core's cases,
# judged against the base's x86_64.txt).  KUnit and every upstream case;
# the core's cases; every module loaded, traced and unloaded
# (harness=modload), so that module records outnumber vmlinux's.  3 GiB:
# the initramfs holds every module.
#   debian     (6.1) Debian 12's cloud-amd64 config: about 1,100 modules,
#              BTF, module signing, lockdown;
#   debian-rt  (6.12) the rt flavour's settings on the same drivers:
#              PREEMPT_RT, RCU boosting, the latency tracers.
debian_step() {
	local variant=$1 name expect kunit=(--kunit)
	local ftt_to=${ftt_timeout[x86_64]} core_to=${core_timeout[x86_64]}
	# The rt kernel's guests ran 557 s (upstream's cases) and 462 s (the
	# core's, with KUnit) beside a kernel build: half their timeouts.
	if [ "$variant" = debian-rt ]; then
		ftt_to=$((ftt_to * 3 / 2)) core_to=$((core_to * 3 / 2))
	fi
	name=$(VARIANT=$variant kname x86_64 "$flavor")
	expect="$expdir/x86_64-$variant.txt"
	echo "== $name: Debian's own config ($variant)"
	kernel_ready "$name" "$variant" || return
	if [ -f "$expect" ]; then
		echo "== $name: KUnit, boot self-tests and ftracetest upstream"
		guest_run "$name" 2 ftracetest upstream VARIANT="$variant" MEM=3G KUNIT=1 \
			APPEND="ftt_functions=0 ftt_bench=0" TIMEOUT="${TIMEOUT:-$ftt_to}" -- \
			judge --kunit --expect "$expect"
		kunit=()
	else
		echo "skip $name: upstream's cases: no ${expect#"$top"/} (VARIANT=$variant${base_suffix:+ BASE=$BASE} make expectations ARCH=x86_64)"
		printf 'passed 0\nfailed 0\nskipped 1\n' > "$results/$name-upstream"
		expect="$expdir/x86_64.txt"
	fi
	echo "== $name: ${kunit:+KUnit and }ftracetest test.d/ftrace-core"
	guest_run "$name-core" 2 ftracetest test.d/ftrace-core VARIANT="$variant" MEM=3G \
		KUNIT=${#kunit[@]} APPEND="ftt_functions=0 ftt_bench=0" \
		TIMEOUT="${TIMEOUT:-$core_to}" QEMU_LOG_NAME=core -- \
		judge "${kunit[@]}" --subset --expect "$expect" --core-cases "$top/harness/ftt" \
		"${debian_unsupported[@]}"
	echo "== $name: every module loaded, traced and unloaded"
	guest_run "$name-modload" 1 modload '' VARIANT="$variant" MEM=3G KUNIT=0 \
		TIMEOUT="$modload_timeout" -- guest --doc modload --what "every module"
}

# debian_stream BASE ARCH VARIANT: make check-debian's stream, one kernel.
debian_stream() {
	set_base "$1"
	debian_step "$3"
}

# Arches only built, booted and smoke-tested (harness/smoke.sh): 32-bit
# arm, whose call sites our recordmcount records.  SMOKE_ARCHES= skips them.
smoke_stream() {
	local arch=$1
	set_base 6.1
	echo "== $(kname "$arch" "$flavor"): build, boot, smoke test"
	# smoke.sh runs kernel.sh itself, a no-op once the background build is done.
	wait_kernel "$(kname "$arch" "$flavor")"
	"$top/harness/smoke.sh" "$arch" "$flavor"
}

# stream NAME CMD...: run CMD in the background, each of its lines
# prefixed with NAME and the seconds since make check started.
pids=()
stream() {
	local tag=$1
	shift
	( "$@" 2>&1 | while IFS= read -r line; do
		printf '[%s %5d] %s\n' "$tag" $((SECONDS - run_start)) "$line"
	done | tee -a "$build/logs/check-lines.log" ) &
	pids+=($!)
}
rm -f "$build/logs/guest-times" "$build/logs/check-lines.log"
[ "$full" = debian ] || stream host host_stream
for spec in $specs; do
	IFS=: read -r b arch name variant <<< "$spec"
	# One stream per base and arch, booted or compiled only (the
	# variants run in the stream of their base and arch; the smoke-tested
	# arches have their own).
	case "$full:$variant" in
	*:) what=arch_stream ;;
	*:objs) what=objs_stream ;;
	debian:debian*) what=debian_stream ;;
	*) continue ;;
	esac
	[[ " $smoke_arches " == *" $arch "* ]] && continue
	tag=$arch
	[ "$b" = 6.1 ] || tag=$arch-$b
	stream "$tag" "$what" "$b" "$arch" "$variant"
done
for arch in $smoke_arches; do stream "$arch" smoke_stream "$arch"; done
for p in "${pids[@]}"; do wait "$p"; done
wait "$bq_pid"

# The core's files only call down (the layer table of ftrace_core.h), in
# every kernel of ours this run built: one result per file and kernel.
if [ "$flavor" = ours ]; then
	kdirs=$(for spec in $specs; do
		IFS=: read -r b arch name variant <<< "$spec"
		[ "$(cat "$bq/$name.rc" 2>/dev/null)" = 0 ] && echo "$build/kernel/$name"
	done)
	echo "== layers of the core"
	# shellcheck disable=SC2086
	host_suite layers python3 "$top/harness/layers.py" $kdirs
fi
# Each guest's time against its timeout; those over half of it.
if [ -s "$build/logs/guest-times" ]; then
	echo "== guest times (s of timeout), run $SECONDS s so far"
	awk '{ printf "   %-28s %5d of %5d%s\n", $1, $2, $3, ($2 * 2 > $3 ? "  over half" : "") }' \
		"$build/logs/guest-times"
fi
# The failures again, last: CI keeps only the end of what make check prints.
failed=$(grep -l '^failed [1-9]' "$results"/* 2>/dev/null | xargs -r -n1 basename)
if [ -n "$failed" ]; then
	echo "== failed results:" $failed
	grep -E '^\[[^]]*\] *FAIL ' "$build/logs/check-lines.log" 2>/dev/null | tail -n 10
fi
python3 "$top/harness/check.py" total "$results"
