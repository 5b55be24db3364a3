#!/usr/bin/env bash
# model.sh [findings]: check the Promela models of harness/model/ with spin.
#
# For each model, with 2 and 3 CPUs (the writer and 1 or 2 executing
# CPUs; ops-lifecycle also with -DTWO_WRITERS: two writers, the same
# executing CPUs), spin generates the verifier (-DCPUS=N -DBUG=K), gcc
# builds it (exhaustive: -DSAFETY -DCOLLAPSE -DNOREDUCE, no bitstate or
# hash compaction) and pan searches every state.  The model as the code
# implements it (BUG=0) passes when pan reports "errors: 0" after a
# complete search; each seeded bug (BUG=1...) passes when pan finds at
# least one error.  Every run prints its stored states and search time.
# Everything is built under build/model/; one run at a time.
#
# "findings" instead reproduces what modelling found in the core (see the
# headers of the .pml files): printed as "info" lines, not counted.
#
# The last line is "N passed, N failed, N skipped"; the exit status is
# non-zero when anything failed.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
command -v spin > /dev/null || die "spin is not installed (apt-get install spin)"
command -v gcc > /dev/null || die "gcc is not installed"
models="$top/harness/model"
work="$build/model"
rm -rf "$work"; mkdir -p "$work"
depth=100000
pass=0 fail=0
start=$SECONDS

# verify MODEL CPUS BUG [DEFINE...]: build and run one verifier in its own
# directory; sets $dir, $errors, $states, $secs, $why (the first violated
# assertion, if any) and $complete (1 if the search was exhaustive).
verify() {
	local model=$1 cpus=$2 bug=$3 tag
	shift 3
	tag="$model-cpus$cpus-bug$bug$(printf '%s' "$@" | tr -c 'A-Za-z0-9_=' '_')"
	dir="$work/$tag"
	errors='' states='?' secs='?' why='' complete=0
	mkdir -p "$dir"
	cp "$models/$model.pml" "$dir/"
	if ! (cd "$dir" && spin -DCPUS="$cpus" -DBUG="$bug" "$@" -a "$model.pml") \
		> "$dir/spin.log" 2>&1; then
		why="spin -a failed (log: ${dir#"$top/"}/spin.log)"
		return
	fi
	if ! (cd "$dir" && gcc -w -O0 -DSAFETY -DCOLLAPSE -DNOREDUCE -o pan pan.c) \
		> "$dir/gcc.log" 2>&1; then
		why="gcc failed (log: ${dir#"$top/"}/gcc.log)"
		return
	fi
	(cd "$dir" && ./pan -m"$depth" -w22) > "$dir/pan.log" 2>&1
	errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$dir/pan.log" | tail -n 1)
	states=$(awk '/states, stored/ { print $1; exit }' "$dir/pan.log")
	secs=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' "$dir/pan.log")
	why=$(sed -n 's/^pan:1: \(.*\) (at depth.*/\1/p' "$dir/pan.log" | head -n 1)
	if [ -n "$errors" ] &&
	   ! grep -qE 'max search depth too small|out of memory|[Ss]earch not completed' \
		"$dir/pan.log"; then
		complete=1
	fi
}

ok() { echo "ok   model $*"; pass=$((pass + 1)); }
bad() { echo "FAIL model $*"; fail=$((fail + 1)); }

# check MODEL CPUS [DEFINE...]: the model as implemented must pass a
# complete search.
check() {
	local model=$1 cpus=$2
	shift 2
	verify "$model" "$cpus" 0 "$@"
	local what="$model cpus=$cpus${*:+ $*}"
	if [ -z "$errors" ]; then
		bad "$what: ${why:-no result} (log: ${dir#"$top/"}/pan.log)"
	elif [ "$errors" != 0 ]; then
		bad "$what: $errors error(s): $why (trail: ${dir#"$top/"})"
	elif [ $complete != 1 ]; then
		bad "$what: search incomplete (log: ${dir#"$top/"}/pan.log)"
	else
		ok "$what ($states states, $secs s)"
	fi
}

# seeded MODEL CPUS BUG TEXT [DEFINE...]: the seeded bug must be found.
seeded() {
	local model=$1 cpus=$2 bug=$3 text=$4
	shift 4
	verify "$model" "$cpus" "$bug" "$@"
	local what="$model cpus=$cpus${*:+ $*} seeded-bug"
	if [ -n "$errors" ] && [ "$errors" -ge 1 ]; then
		ok "$what rejected (BUG=$bug: $text; $why; $states states, $secs s)"
	else
		bad "$what not rejected (BUG=$bug: $text; errors: ${errors:-?}; log: ${dir#"$top/"}/pan.log)"
	fi
}

# finding MODEL CPUS BUG TEXT DEFINE...: one reproduction, printed as info.
finding() {
	local model=$1 cpus=$2 bug=$3 text=$4
	shift 4
	verify "$model" "$cpus" "$bug" "$@"
	set -- -DBUG="$bug" "$@"
	if [ -n "$errors" ] && [ "$errors" -ge 1 ]; then
		echo "info model $model cpus=$cpus $*: $text: violated: $why ($states states, $secs s; trail: ${dir#"$top/"})"
	elif [ "$errors" = 0 ] && [ $complete = 1 ]; then
		echo "info model $model cpus=$cpus $*: $text: holds ($states states, $secs s)"
	else
		echo "info model $model cpus=$cpus $*: $text: no result (log: ${dir#"$top/"}/pan.log)"
	fi
}

if [ "${1:-}" = findings ]; then
	for cpus in 2 3; do
		finding ops-lifecycle "$cpus" 0 "direct callee gets its own ops" -DCHECK_OPARG
		finding ops-lifecycle "$cpus" 0 "same, waiting between function_trace_op and the call" \
			-DCHECK_OPARG -DFIX_OPARG
		finding ops-lifecycle "$cpus" 0 "two static ops, direct callee gets its own ops" \
			-DTWO_STATIC -DCHECK_OPARG
		finding arm64-insn "$cpus" 3 "freeing without kick_all_cpus_sync, grace period not a CSE" \
			-DFREE_ONLY=1
		finding arm64-insn "$cpus" 3 "freeing without kick_all_cpus_sync, grace period is a CSE" \
			-DFREE_ONLY=1 -DGP_CSE=1
		finding int3-batch "$cpus" 0 "without the descriptor's reference count" -DREFS=0
	done
	echo "0 passed, 0 failed, 0 skipped"
	exit 0
fi

for cpus in 2 3; do
	check int3-batch "$cpus"
	seeded int3-batch "$cpus" 1 "no sync between the tails and the heads"
	seeded int3-batch "$cpus" 2 "no sync between int3 and the tails"
	seeded int3-batch "$cpus" 3 "no sync after the heads"
done
for cpus in 2 3; do
	check arm64-insn "$cpus"
	seeded arm64-insn "$cpus" 1 "old target freed without a grace period"
	seeded arm64-insn "$cpus" 2 "no I-cache invalidation"
	seeded arm64-insn "$cpus" 3 "no kick_all_cpus_sync"
	seeded arm64-insn "$cpus" 4 "no D-cache clean"
done
for cpus in 2 3; do
	check ops-lifecycle "$cpus"
	seeded ops-lifecycle "$cpus" 1 "no grace period"
	seeded ops-lifecycle "$cpus" 2 "trampoline freed before the site is repointed"
	seeded ops-lifecycle "$cpus" 3 "no RCU-tasks wait for an ops with a trampoline"
	seeded ops-lifecycle "$cpus" 4 "no rude grace period"
done
# unregister_ftrace_function() waiting without ftrace_lock, another
# writer registering and unregistering meanwhile
for cpus in 2 3; do
	check ops-lifecycle "$cpus" -DTWO_WRITERS
	seeded ops-lifecycle "$cpus" 3 "no RCU-tasks wait between the halves" -DTWO_WRITERS
	seeded ops-lifecycle "$cpus" 5 "a refused second unregistration runs the second half" \
		-DTWO_WRITERS
	seeded ops-lifecycle "$cpus" 6 "an ops between the halves may register again" -DTWO_WRITERS
	seeded ops-lifecycle "$cpus" 7 "no rude grace period after unlisting the trampoline" \
		-DTWO_WRITERS
done
echo "model checking took $((SECONDS - start)) s"
echo "$pass passed, $fail failed, 0 skipped"
[ $fail = 0 ]
