#!/usr/bin/env bash
# qemu.sh ARCH FLAVOR MODE [FTT]: boot a built kernel under QEMU TCG, 2 vCPUs.
#
# MODE is the guest's harness= mode (demo, shell, ftracetest; see guest/init).
# FTT is the comma-separated list of ftracetest cases or directories to run.
# Non-interactive modes read no input (stdin is /dev/null, as under CI), are
# bounded by TIMEOUT seconds and log the console to build/logs/.
# Environment: KUNIT=1 runs the built-in KUnit suites at boot; ICOUNT=1 makes
# guest time an instruction count (-icount shift=0,sleep=off) for benchmarks;
# APPEND adds kernel parameters; SMP sets the number of vCPUs (default 2);
# TOOLS=1 boots the initramfs with the tools (harness/tools-initramfs.sh)
# and MEM sets the guest's memory (default 1G; 2G with the tools, whose
# root file system, kernel headers unpacked, outgrows half of 1G).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
arch=${1:?ARCH}; flavor=${2:?FLAVOR}; mode=${3:?MODE}; ftt=${4:-}
check_arch "$arch"; check_flavor "$flavor"

out=$(kdir "$arch" "$flavor")
initrd="$build/initramfs/$(kname "$arch" "$flavor")${TOOLS:+-tools}.cpio"
mem=${MEM:-1G}
[ -n "${TOOLS:-}" ] && mem=${MEM:-2G}
[ -f "$out/$image" ] || die "no kernel at $out/$image"
[ -f "$initrd" ] || die "no initramfs at $initrd"

append="harness=$mode panic=-1 log_buf_len=4M kunit.enable=${KUNIT:-0}"
[ -n "$ftt" ] && append="$append ftt=$ftt"
[ -n "${APPEND:-}" ] && append="$append $APPEND"
# x86_64 and arm64 run their vCPUs in one host thread by default.  With one
# thread per vCPU, QEMU 7.2 can keep running a block it translated from a
# page while another vCPU wrote the page (it reads guest code before it
# locks the page; fixed in QEMU 8.1, "accel/tcg: Always lock pages before
# translation"): on x86_64 a CPU then livelocks on an int3 already patched
# away (the unmodified kernel too), on arm64 a callback runs from a site
# already back to NOP.  TCG_OPTS overrides.
case "$arch" in x86_64|arm64) TCG_OPTS=${TCG_OPTS-,thread=single} ;; esac
case "$arch" in
x86_64)
	qemu=(qemu-system-x86_64 -M pc -cpu "${X86_CPU:-qemu64}" -smp "${SMP:-2}" -m "$mem")
	append="console=ttyS0 $append" ;;
arm64)
	# -cpu max has pointer authentication, which the distro fragment's
	# kernels use (configs/distro-arm64.config); QEMU's own cheap algorithm
	# (pauth-impdef) in place of the architected QARMA5, whose emulation
	# costs far more in every signed call and return.
	qemu=(qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -smp "${SMP:-2}" -m "$mem")
	append="console=ttyAMA0 $append" ;;
arm)
	qemu=(qemu-system-arm -M virt -cpu cortex-a15 -smp "${SMP:-2}" -m 512M)
	append="console=ttyAMA0 $append" ;;
esac
qemu+=(-accel "tcg${TCG_OPTS:-}" -nographic -no-reboot -kernel "$out/$image" -initrd "$initrd"
       -append "$append")
[ "${ICOUNT:-0}" = 1 ] && qemu+=(-icount shift=0,sleep=off)
# shellcheck disable=SC2206
[ -n "${QEMU_EXTRA:-}" ] && qemu+=(${QEMU_EXTRA})

if [ "$mode" = shell ]; then
	exec "${qemu[@]}"
fi
mkdir -p "$build/logs"
# QEMU_LOG_NAME names the log in place of MODE, for two boots of one mode.
log="$build/logs/$(kname "$arch" "$flavor")-${QEMU_LOG_NAME:-$mode}.log"
echo "qemu: $(kname "$arch" "$flavor") $mode, console log in $log" >&2
# The demo (make run) shows what the guest's script prints; the kernel's
# boot log (a few hundred lines) stays in the log file, but for any line
# that reports a problem.  SHOW_BOOT=1 shows everything.
show() {
	if [ "$mode" = demo ] && [ "${SHOW_BOOT:-0}" != 1 ]; then
		grep --line-buffered -avE '\[ *[0-9]+\.[0-9]+\] ' ||
			true
	else
		cat
	fi
}
problems() {
	grep -aE '\[ *[0-9]+\.[0-9]+\] (ftrace: |.*\b(WARNING|BUG|Oops|Kernel panic|Call Trace)\b)' "$log" || true
}
[ "$mode" = demo ] && [ "${SHOW_BOOT:-0}" != 1 ] &&
	echo "qemu: booting; the kernel's messages go to the log only (SHOW_BOOT=1 shows them)" >&2
set +e
t0=$(date +%s)
timeout --foreground -k 10 "${TIMEOUT:-300}" "${qemu[@]}" < /dev/null 2>&1 |
	stdbuf -oL tr -d '\r' | tee "$log" | show
rc=${PIPESTATUS[0]}
if [ "$mode" = demo ] && [ "${SHOW_BOOT:-0}" != 1 ]; then
	echo "qemu: $(grep -acE '\[ *[0-9]+\.[0-9]+\] ' "$log") kernel log lines in $log; ftrace's, and any problem:"
	problems | sed 's/^/  /'
fi
set -e
[ "$rc" = 124 ] && echo "qemu: timed out after ${TIMEOUT:-300} s" | tee -a "$log" >&2
# How long the guest ran against its timeout (make check sets each
# timeout to at least twice a measured time; harness/check.sh lists the
# guests that used more than half of theirs).
took=$(( $(date +%s) - t0 ))
echo "qemu: ran $took s of a ${TIMEOUT:-300} s timeout" >> "$log"
[ $((took * 2)) -gt "${TIMEOUT:-300}" ] && [ "$rc" != 124 ] &&
	echo "qemu: $(kname "$arch" "$flavor") $mode ran $took s, over half of its ${TIMEOUT:-300} s timeout" >&2
grep -q '^HARNESS: done' "$log" || { echo "qemu: the guest did not finish" >&2; exit 1; }
exit 0
