# Dynamic ftrace from scratch, on Linux 6.1.y and 6.12.y: build, boot,
# test, compare.  Everything generated goes under build/.  See README.md.
ARCH ?= x86_64
FLAVOR ?= ours
# The kernel base of the one-kernel targets: 6.1 (the default) or 6.12
# (FLAVOR=ours on x86_64 and arm64).  make check runs both (BASES).
# The scripts read it from the environment (harness/lib.sh).
export BASE ?= 6.1
export JOBS ?= 3
H := harness

.PHONY: help setup kernel initramfs run shell check check-full check-612 check-debian expectations \
	check-bpf check-tools lint kunit stress debug model bench bench-recordmcount series series-check clean \
	diff diff-expect ftt

help:
	@echo "make run [ARCH=x86_64|arm64] [FLAVOR=ours|upstream]  build, boot, show tracing"
	@echo "make shell [ARCH=..] [FLAVOR=..]   interactive shell in the same VM"
	@echo "make check                         host tests; KUnit, ftracetest and more booting arm64 on 6.1 (also built with clang) and x86_64 on 6.12, the other two pairs compiled"
	@echo "make check-full                    every pair booted, every upstream case, both arches built with clang, the variants (nodyn, fp, Debian's config), 32-bit arm"
	@echo "make check-612                     make check's streams on Linux 6.12 alone, with make stress short"
	@echo "make check-debian [BASES=6.1]      check-full's kernels from Debian's own configs only (6.1 cloud-amd64, 6.12 rt)"
	@echo "make ftt ARCH=.. CASES=..          chosen ftracetest cases in one boot (CASES=test.d/ftrace-core/X.tc,...)"
	@echo "make check-bpf [BASE=6.12]         BPF fentry/fexit, ours and upstream (BTF builds; 6.12: both arches)"
	@echo "make check-tools [BASE=6.12]       bpftrace, bcc, bpftool, cyclictest, stress-ng: ours and upstream under icount"
	@echo "make lint [ARCH=..]                sparse, coccinelle and the layer check on the core's files (make check runs sparse and layers)"
	@echo "make kunit [ARCH=..]               the core's KUnit suites through tools/testing/kunit/kunit.py"
	@echo "make stress [ARCH=..] [FLAVOR=..] [SIZE=short|full|debug]  the core under load and bad input"
	@echo "make debug [ARCH=..] [FLAVOR=..]   KUnit, ftracetest and stress on a KASAN+lockdep kernel"
	@echo "make model                         spin: the patch protocols, model-checked"
	@echo "make expectations ARCH=..          measure upstream's ftracetest results"
	@echo "make expectations BASE=6.12 ARCH=..  the same for stock 6.12 (expectations/6.12/)"
	@echo "make diff [ARCH=..]                tracefs scenarios, ours against 6.1 (live and recorded)"
	@echo "make diff-expect ARCH=..           record 6.1's output of those scenarios"
	@echo "make bench [ARCH=..] [RUNS=2]      benchmarks against upstream, side by side"
	@echo "make bench-recordmcount [ARCH=..]  time our recordmcount against upstream's"
	@echo "make series                        the curated patch series (series/) in build/series/"
	@echo "make series BASE=6.12              the 6.12 series (series/ with series/6.12/ over it) in build/series-6.12/"
	@echo "make series-check [BASE=6.12]      git am it onto the pristine base, build every step, checkpatch"

setup:
	@$(H)/setup.sh

kernel: setup
	@$(H)/kernel.sh $(ARCH) $(FLAVOR)

initramfs: kernel
	@$(H)/initramfs.sh $(ARCH) $(FLAVOR)

run: initramfs
	@TIMEOUT=300 $(H)/qemu.sh $(ARCH) $(FLAVOR) demo

shell: initramfs
	@$(H)/qemu.sh $(ARCH) $(FLAVOR) shell

check: setup
	@$(H)/check.sh

check-full: setup
	@$(H)/check.sh full

# make check's streams on Linux 6.12 alone, judged against stock 6.12
# (docs/testing.md, "Linux 6.12").
check-612: setup
	@BASES=6.12 BASE=6.12 $(H)/check.sh

# make check-full's kernels built from Debian's own configs, alone: 6.1's
# cloud-amd64 and 6.12's rt flavour (BASES=6.1 or 6.12 picks one).
check-debian: setup
	@$(H)/check.sh debian

# sparse on the core's files of ARCH's kernel, then the kernel's coccinelle
# scripts on them.
lint: setup
	@$(H)/kernel.sh $(ARCH) ours
	@$(H)/lint.sh $(ARCH)
	@$(H)/cocci.sh
	@python3 $(H)/layers.py build/kernel/$(ARCH)-ours

# The core's KUnit suites as kernel developers run them: kunit.py with
# kernel/trace/.kunitconfig (its own small kernel, built in build/kunit/).
# Chosen ftracetest cases in one boot of one kernel.
ftt: setup
	@$(H)/ftt.sh $(ARCH) $(FLAVOR) "$(CASES)"

kunit: setup
	@$(H)/kunit.sh $(ARCH)

# Tracers, filters, instances and modules churning under load, then
# malformed writes (harness/stress.sh); SIZE=full is the long run.
stress: setup
	@$(H)/stress.sh $(ARCH) $(FLAVOR) $(or $(SIZE),short)

# The same kernel with KASAN, lockdep, PROVE_RCU, DEBUG_ATOMIC_SLEEP and
# DEBUG_LIST (FLAVOR-debug): KUnit, ftracetest's ftrace cases and the short
# stress run, no splat allowed (harness/debug.sh).  make stress
# FLAVOR=ours-debug runs only the stress part.
debug: setup
	@$(H)/debug.sh $(ARCH) $(FLAVOR)

# Promela models of the patch protocols, checked exhaustively by spin.
model: setup
	@$(H)/model.sh

# BPF programs through the BPF trampoline, on kernels with BTF of BASE
# (6.1: x86_64 ours and upstream, arm64 ours; 6.12: both flavors on both
# arches; KERNELS picks).
check-bpf: setup
	@$(H)/check-bpf.sh

# The tools people trace with (bpftrace, bcc, bpftool, cyclictest, stress-ng),
# ours and upstream of BASE on both arches, timed under icount (KERNELS
# picks).
check-tools: setup
	@$(H)/check-tools.sh

# Full upstream ftracetest run for ARCH, recorded as expectations/ARCH.txt
# (BASE=6.12: expectations/6.12/ARCH.txt).
expectations: setup
	@$(H)/expectations.sh $(ARCH)

# The differential battery (harness/guest/diff.sh): ours and 6.1 booted one
# after the other, compared with each other and ours with the recorded
# expectations/diff.ARCH.txt; known differences in expectations/diff-known.txt.
diff: setup
	@$(H)/diff.sh $(ARCH)

# 6.1's output of the battery, recorded as expectations/diff.ARCH.txt.
diff-expect: setup
	@$(H)/diff.sh $(ARCH) expect

# Benchmarks against the unmodified 6.1 kernel: the core (in-guest, under
# -icount) and recordmcount.
bench: setup
	@python3 $(H)/bench.py $(ARCH)
	@$(MAKE) --no-print-directory bench-recordmcount ARCH=$(ARCH)

# recordmcount, ours vs upstream 6.1's, over the objects of ARCH's kernel.
bench-recordmcount: setup
	@if [ "$(ARCH)" = x86_64 ]; then $(H)/kernel.sh $(ARCH) upstream; else $(H)/kernel.sh $(ARCH) ours; fi
	@python3 $(H)/bench_recordmcount.py $(ARCH) build/bench/recordmcount-$(ARCH).json

# The patch series from the plan in series/ (one file a patch), for HEAD;
# BASE=6.12: series/6.12/ over it, against Linux 6.12.
series: setup
	@$(H)/kernel.sh unpack
	@python3 $(H)/series.py

series-check: setup
	@$(H)/kernel.sh unpack
	@$(H)/series-check.sh

clean:
	rm -rf build/kernel build/src build/initramfs build/logs build/results build/series* build/series-check*
