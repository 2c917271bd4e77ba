#!/bin/bash
# shellcheck disable=SC2317 # the K_args functions are called as "${k}_args"
# cpu.sh: how fast the CPU backend runs kernels (`silkc exec`), next to the
# same loops in plain C, and how much memory its executor keeps.
#
#   bench/cpu.sh [SILKC]            (make bench runs it with ./src/silkc)
#
# The peers are bench/cpu_reference.c, compiled here with `$CC -O2
# -ffp-contract=off` ($CC, else cc: the compiler silkc exec itself uses;
# the flag is its modules' floating-point rule).  Each kernel's result is
# first checked against its peer's (byte for byte, or within a tolerance
# for the float sum), so that the figures compare the same work.  Wall
# clock, best of CPU_RUNS (3) rounds, every variant once a round so that a
# change in the machine's load hits all of them.  For saxpy, reduce and
# sgemm (examples/):
#   - silkc exec as typed: the whole command a user types, with its
#     defaults (one worker per core), cc building the module included;
#     against the whole C program (the same buffers, filled the same way,
#     then the loop);
#   - the launch alone: that command less a baseline, the same command
#     with a grid of one CTA and the size argument 0 (the same buffers made
#     and filled; one CTA that starts and exits), both with cc replaced by
#     a copy of the module it built, so that cc's time and its noise
#     cancel; against the C loop alone, timed inside the C program.  Again
#     with --workers 1, the C loop's one core;
#   - cc building the module, timed by a wrapper around it.
# Then bench/cpu_compute.silk with --workers 1: the IR instructions its
# threads execute (bench/cpu_count.awk on `silkc compile --emit=ir`, from
# the trip counts) over the launch alone's time and over the whole
# command's.  Last, the peak memory (GNU time's %M) of silkc exec, cc
# replaced as above so that cc's own peak does not count: reduce on a grid
# of one CTA per worker and on one of CPU_MEM_GRID work items, and
# cpu_compute for 1 and CPU_MEM_ROUNDS rounds.
# Goals (issue 13): saxpy within 20 x C; at least 50 M IR instructions per
# second on one core; the executor's memory growing neither with the CTAs
# (by less than one 48-byte thread slot per CTA) nor with the instructions
# (by less than a byte per 1000).  reduce and sgemm have none: their ratios
# are stated, at sizes that take 1-10 s.  A missed goal does not fail the
# benchmark; a wrong result does (exit 1).  Exit 77 without a C compiler.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
silkc=${1:-${SILKC:-silkc}}
cc=${CC:-cc}
runs=${CPU_RUNS:-3}
saxpy_n=${CPU_SAXPY_N:-16777216}
reduce_n=${CPU_REDUCE_N:-33554432}
sgemm_n=${CPU_SGEMM_N:-640}
compute_grid=${CPU_COMPUTE_GRID:-65536}
compute_rounds=${CPU_COMPUTE_ROUNDS:-2000}
mem_grid=${CPU_MEM_GRID:-4194304}
mem_n=${CPU_MEM_N:-1048576}
mem_rounds=${CPU_MEM_ROUNDS:-100000}
cores=$(nproc 2>/dev/null || echo 1)
cta=256 # the threads of every kernel here, @launch(256)
gnu_time=/usr/bin/time

if ! command -v "$cc" >/dev/null 2>&1; then
    echo "bench/cpu: no C compiler ($cc; set CC): silkc exec cannot build a module, and there is no peer"
    exit 77
fi
fail() { echo "bench/cpu: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cc" -O2 -std=c11 -ffp-contract=off -o "$work/reference" "$here/cpu_reference.c" -lm ||
    fail "$cc cannot compile bench/cpu_reference.c"

# ---- cc, kept and replayed -------------------------------------------------------------

# cc-keep: the real compiler, keeping what it built as $KEEP.c and $KEEP.so
# and adding its seconds to $KEEP.cc_s.  cc-replay: a copy of $REPLAY where
# the module should be, and no compiler.
cat >"$work/cc-keep" <<EOF
#!/bin/bash
prev= out= src=
for a in "\$@"; do
    [ "\$prev" = -o ] && out=\$a
    case \$a in *.c) src=\$a ;; esac
    prev=\$a
done
start=\$EPOCHREALTIME
"$cc" "\$@" || exit
end=\$EPOCHREALTIME
cp "\$src" "\$KEEP.c" && cp "\$out" "\$KEEP.so" || exit
awk -v s="\$start" -v e="\$end" 'BEGIN { printf "%.3f\n", e - s }' >>"\$KEEP.cc_s"
EOF
cat >"$work/cc-replay" <<'EOF'
#!/bin/sh
while [ $# -gt 1 ]; do [ "$1" = -o ] && exec cp "$REPLAY" "$2"; shift; done
exit 1
EOF
chmod +x "$work/cc-keep" "$work/cc-replay"

# keep K CMD...: CMD with cc-keep, keeping module K.  replay K CMD...: CMD
# with module K copied in for cc.
keep() { env CC="$work/cc-keep" KEEP="$work/$1" "${@:2}"; }
replay() { env CC="$work/cc-replay" REPLAY="$work/$1.so" "${@:2}"; }

# ---- the commands ----------------------------------------------------------------------

# K_args GRID SIZE [COUNT]: `silkc exec` of benchmark K in $args.  SIZE is
# the argument the work grows with (saxpy's and reduce's n, sgemm's k,
# compute's rounds), apart from the buffers, so that the baseline can make
# it 0 over the same buffers; COUNT, where given, is the buffers' elements.
saxpy_args() {
    args=("$silkc" exec "$top/examples/saxpy.silk" --kernel saxpy --grid "$1" --arg "$2"
          --buf f32:1:2 --buf "f32:$saxpy_n:random" --buf "f32:$saxpy_n:1")
}
reduce_args() {
    args=("$silkc" exec "$top/examples/reduce.silk" --kernel reduce --grid "$1" --arg "$2"
          --buf "f32:${3:-$reduce_n}:random" --buf f32:1:0)
}
sgemm_args() {
    local s=$sgemm_n
    args=("$silkc" exec "$top/examples/sgemm.silk" --kernel sgemm --grid "$1" --arg "$s" --arg "$s"
          --arg "$2" --buf "f32:$((s * s)):random" --buf "f32:$((s * s)):random" --buf "f32:$((s * s)):0")
}
compute_args() {
    local n=${3:-$compute_grid}
    args=("$silkc" exec "$here/cpu_compute.silk" --kernel compute --grid "$1" --arg "$n" --arg "$2"
          --buf "f32:$n:0" --workers 1)
}

# ---- timing ----------------------------------------------------------------------------

less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(b == "" || a + 0 < b + 0) }'; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }

# timed VAR CMD...: one run of CMD, wall clock; VAR keeps the least
# seconds.  CMD's output is left in $work/out.
timed() {
    local var=$1 start end t
    shift
    start=$EPOCHREALTIME
    "$@" >"$work/out" 2>"$work/err" || fail "failed: $* -- $(head -c 400 "$work/err")"
    end=$EPOCHREALTIME
    t=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')
    less "$t" "${!var}" && printf -v "$var" '%s' "$t"
    return 0
}

# reference VAR LOOPVAR ARGS...: one run of the C peer; LOOPVAR keeps the
# least seconds of its loop, from its own `loop S` line.
reference() {
    local var=$1 loopvar=$2 t
    shift 2
    timed "$var" "$work/reference" "$@"
    t=$(awk '$1 == "loop" { printf "%.3f", $2 }' "$work/out")
    less "$t" "${!loopvar}" && printf -v "$loopvar" '%s' "$t"
    return 0
}

# build_module K: module K kept from its baseline command, built $runs
# times for cc's best time (cc_s).
build_module() {
    local k=$1 r
    "${k}_args" "$cta" 0
    for ((r = 0; r < runs; r++)); do
        keep "$k" "${args[@]}" >/dev/null 2>"$work/err" ||
            fail "$k: silkc exec failed: $(head -c 400 "$work/err")"
    done
    cc_s=$(sort -n "$work/$k.cc_s" | head -1)
}

# measure K GRID SIZE PEER...: every variant of benchmark K (see the top),
# $runs rounds; sets typed_s, launch_s, launch1_s (not for compute, whose
# command has --workers 1 already), c_s and loop_s.
measure() {
    local k=$1 grid=$2 size=$3 typed base r
    local t_typed="" t_base="" t_full="" t_full1="" t_c="" t_loop=""
    shift 3
    "${k}_args" "$grid" "$size" && typed=("${args[@]}")
    "${k}_args" "$cta" 0 && base=("${args[@]}")
    for ((r = 0; r < runs; r++)); do
        timed t_typed "${typed[@]}"
        timed t_base replay "$k" "${base[@]}"
        timed t_full replay "$k" "${typed[@]}"
        [ "$k" = compute ] || timed t_full1 replay "$k" "${typed[@]}" --workers 1
        reference t_c t_loop "$@"
    done
    typed_s=$t_typed c_s=$t_c loop_s=$t_loop
    launch_s=$(minus "$t_full" "$t_base")
    launch1_s=$([ -n "$t_full1" ] && minus "$t_full1" "$t_base")
}

# ---- checks: the same results as C -----------------------------------------------------

# same_bytes K GRID SIZE PEER...: the kernel's buffers (--out) are the C
# peer's (its OUT), byte for byte: both do the same operations in the same
# order, fma as fmaf.
same_bytes() {
    local k=$1 grid=$2 size=$3
    shift 3
    "$work/reference" "$@" "$work/$k.c.out" >/dev/null || fail "$k: the C peer failed"
    "${k}_args" "$grid" "$size"
    replay "$k" "${args[@]}" --out "$work/$k.silk.out" >/dev/null 2>"$work/err" ||
        fail "$k: silkc exec failed: $(head -c 400 "$work/err")"
    cmp -s "$work/$k.silk.out" "$work/$k.c.out" ||
        fail "$k: the kernel's buffers are not bench/cpu_reference.c's: $(cmp "$work/$k.silk.out" "$work/$k.c.out" 2>&1)"
    rm -f "$work/$k.silk.out" "$work/$k.c.out"
}

# The block reduction adds in another order than C's loop, so its total is
# checked against the double sum, within 1e-6 of the sum of magnitudes (17
# here, where one CTA's share is about 37 and the float error under 1): a
# sanity check; tests/cpu checks the kernel exactly.
check_reduce() {
    local grid=$1 total
    reduce_args "$grid" "$reduce_n"
    replay reduce "${args[@]}" --out "$work/reduce.silk.out" >/dev/null 2>"$work/err" ||
        fail "reduce: silkc exec failed: $(head -c 400 "$work/err")"
    total=$(od -An -tf4 -j $((reduce_n * 4)) "$work/reduce.silk.out" | tr -d ' ')
    "$work/reference" reduce "$reduce_n" >"$work/reduce.c.out" || fail "reduce: the C peer failed"
    awk -v t="$total" '$1 == "exact" { e = $2 } $1 == "magnitude" { m = $2 }
        END { d = t - e; if (d < 0) d = -d; exit !(d <= 1e-6 * m) }' "$work/reduce.c.out" ||
        fail "reduce: the kernel's total $total is not the sum: $(tr '\n' ' ' <"$work/reduce.c.out")"
    rm -f "$work/reduce.silk.out" "$work/reduce.c.out"
}

# ---- the table -------------------------------------------------------------------------

misses="" notes=""
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b <= 0) print "-"; else printf "%.2f", a / b }'; }
# line LABEL [SILKC C RATIO GOAL]: one line of the table's columns.
line() {
    local text
    text=$(printf '  %-46s %9s %9s %8s  %s' "$@")
    echo "${text%"${text##*[! ]}"}"
}

# row LABEL SILKC_S C_S [MAX]: one line of the table; a ratio over MAX is a
# missed goal.
row() {
    local r
    r=$(ratio "$2" "$3")
    line "$1" "$2" "$3" "$r" "${4:+<= $4}"
    if [ -n "${4:-}" ] && awk -v r="$r" -v m="$4" 'BEGIN { exit !(r == "-" || r > m) }'; then
        misses="$misses\n  $section: $1: $r x C, goal $4"
    fi
    return 0
}

# The rows of saxpy, reduce and sgemm; GOAL the most silkc may take
# against C, if any (without one, the size should take 1-10 s).
kernel_rows() {
    local goal=${1:-}
    row "silkc exec as typed / the C program" "$typed_s" "$c_s" "$goal"
    row "the launch alone ($cores workers) / the C loop" "$launch_s" "$loop_s" "$goal"
    row "the launch alone, --workers 1 / the C loop" "$launch1_s" "$loop_s" "$goal"
    line "cc building the module, in the first" "$cc_s"
    [ -z "$goal" ] && awk -v t="$typed_s" 'BEGIN { exit !(t < 1 || t > 10) }' &&
        notes="$notes\n  $section: as typed it took $typed_s s, not 1-10 s: change its size"
    return 0
}

# ips_row LABEL INSTRUCTIONS SECONDS: millions a second, goal 50.
ips_row() {
    local m
    m=$(awk -v n="$2" -v s="$3" 'BEGIN { printf "%.0f", n / s / 1e6 }')
    line "$1" "$m M/s" "" "" ">= 50 M/s"
    awk -v m="$m" 'BEGIN { exit !(m < 50) }' && misses="$misses\n  compute: $1: $m M/s, goal 50 M/s"
    return 0
}

# ---- the benchmarks --------------------------------------------------------------------

# saxpy: y = a*x + y, one element a thread; the goal, 20 x C.
bench_saxpy() {
    section=saxpy
    build_module saxpy
    same_bytes saxpy "$saxpy_n" "$saxpy_n" saxpy "$saxpy_n"
    measure saxpy "$saxpy_n" "$saxpy_n" saxpy "$saxpy_n"
    echo "saxpy, $saxpy_n floats, one a thread (x random, y 1)"
    kernel_rows 20
}

# reduce in the example's own shape, 16 elements a thread (its main()
# launches 65536 work items on 2^20 floats); C: a sum loop.
bench_reduce() {
    local grid=$((reduce_n / 16))
    section=reduce
    build_module reduce
    check_reduce "$grid"
    measure reduce "$grid" "$reduce_n" reduce "$reduce_n"
    echo "reduce, $reduce_n random floats, grid $grid (16 a thread, as in its main())"
    kernel_rows
}

# sgemm, n x n x n; C: the naive triple loop.
bench_sgemm() {
    local n=$sgemm_n grid=$(((sgemm_n / 32) * (sgemm_n / 32) * cta))
    section=sgemm
    build_module sgemm
    same_bytes sgemm "$grid" "$n" sgemm "$n" "$n" "$n"
    measure sgemm "$grid" "$n" sgemm "$n" "$n" "$n"
    echo "sgemm, $n x $n x $n random floats, grid $grid; C: the naive triple loop"
    kernel_rows
}

# compute: IR instructions per second on one core.  The launch alone runs
# every thread's $compute_rounds rounds less the baseline's one CTA at 0.
bench_compute() {
    local all real round_all round_real all0 real0 counts
    section=compute
    build_module compute
    same_bytes compute "$compute_grid" "$compute_rounds" compute "$compute_grid" "$compute_rounds"
    measure compute "$compute_grid" "$compute_rounds" compute "$compute_grid" "$compute_rounds"
    "$silkc" compile "$here/cpu_compute.silk" --emit=ir -o "$work/compute.ir" || fail "compute: no IR"
    counts=$(awk -v iters="$compute_rounds" -f "$here/cpu_count.awk" "$work/compute.ir") ||
        fail "compute: its instructions cannot be counted"
    read -r all real round_all round_real <<<"$counts"
    read -r all0 real0 _ <<<"$(awk -v iters=0 -f "$here/cpu_count.awk" "$work/compute.ir")"
    echo "compute (bench/cpu_compute.silk), grid $compute_grid, $compute_rounds rounds, --workers 1"
    row "silkc exec --workers 1 / the C program" "$typed_s" "$c_s"
    row "the launch alone / the C loop" "$launch_s" "$loop_s"
    line "cc building the module, in the first" "$cc_s"
    echo "  IR instructions: $round_all a round ($round_real without phis and branches), $all a thread ($real)"
    ips_row "IR instructions/s, the launch alone" "$((compute_grid * all - cta * all0))" "$launch_s"
    ips_row "  without phis and branches" "$((compute_grid * real - cta * real0))" "$launch_s"
    ips_row "IR instructions/s, the whole command" "$((compute_grid * all))" "$typed_s"
}

# ---- memory ----------------------------------------------------------------------------

# peak VAR K CMD...: VAR keeps the least peak resident set of CMD in KiB,
# module K replayed (GNU time measures env, which becomes silkc).
peak() {
    local var=$1 module=$2 kib
    shift 2
    "$gnu_time" -f %M -o "$work/rss" env CC="$work/cc-replay" REPLAY="$work/$module.so" "$@" \
        >/dev/null 2>"$work/err" || fail "failed: $* -- $(head -c 400 "$work/err")"
    kib=$(tail -1 "$work/rss")
    less "$kib" "${!var}" && printf -v "$var" '%s' "$kib"
    return 0
}

# The executor's own memory by docs/cpu-backend.md, from module K as
# silkc exec built it ($work/K.c): per worker, each thread a 48-byte slot
# and 8 bytes per register saved at the stop that saves the most (n_regs
# in the kernel's entry of the module's table), and the static shared
# memory (the entry's static_shared).  Prints "SAVED IR_REGISTERS
# SHARED_BYTES KIB", the IR registers being the step's C locals r0, r1...
stated_memory() {
    awk -v k="$1" -v threads="$cta" -v workers="$cores" '
        index($0, "static int silk_step_" k "(") { step = 1 }
        step && /^    [a-z0-9_]+ r[0-9]+( = 0)?;$/ { r = substr($2, 2) + 0; if (r >= regs) regs = r + 1 }
        step && /^}/ { step = 0 }
        index($0, "{\"" k "\", silk_step_" k ",") { split($0, f, ", "); saved = f[7] + 0; shared = f[9] + 0; found = 1 }
        END { if (!found) exit 1
              printf "%d %d %d %.1f\n", saved, regs, shared, workers * (threads * (48 + 8 * saved) + shared) / 1024 }' \
        "$work/$1.c" || fail "$1: no kernel entry in its module"
}

# Peak memory against the CTAs (reduce: shared memory, shuffles, a barrier,
# the registers live across each saved there) and the instructions (compute).
bench_memory() {
    local small_grid=$((cores * cta)) small="" large="" few="" many="" r per_cta insts per_k
    local saved regs shared kib
    echo "memory: peak RSS of silkc exec, cc replaced by a copy of its module (best of $runs)"
    if ! "$gnu_time" -f %M -o "$work/rss" true 2>/dev/null; then
        echo "  not measured: no GNU time at $gnu_time"
        notes="$notes\n  memory: not measured (no GNU time)"
        return 0
    fi
    for ((r = 0; r < runs; r++)); do
        reduce_args "$small_grid" "$mem_n" "$mem_n" && peak small reduce "${args[@]}"
        reduce_args "$mem_grid" "$mem_n" "$mem_n" && peak large reduce "${args[@]}"
        compute_args "$small_grid" 1 "$mem_n" && peak few compute "${args[@]}"
        compute_args "$small_grid" "$mem_rounds" "$mem_n" && peak many compute "${args[@]}"
    done
    per_cta=$(awk -v a="$small" -v b="$large" -v n="$((mem_grid / cta - cores))" \
        'BEGIN { printf "%.1f", (b - a) * 1024 / n }')
    insts=$((small_grid * $(awk -v iters="$mem_rounds" -f "$here/cpu_count.awk" "$work/compute.ir" | cut -d' ' -f1)))
    per_k=$(awk -v a="$few" -v b="$many" -v n="$insts" 'BEGIN { printf "%.3f", (b - a) * 1024 * 1000 / n }')
    line "" "peak KiB"
    line "reduce, $mem_n floats, grid $small_grid ($cores CTAs)" "$small"
    line "  grid $mem_grid ($((mem_grid / cta)) CTAs)" "$large"
    line "  growth per CTA, bytes" "$per_cta" "" "" "< 48"
    awk -v g="$per_cta" 'BEGIN { exit !(g >= 48) }' &&
        misses="$misses\n  memory: $per_cta bytes more per CTA, goal under 48 (a thread slot)"
    line "compute, $mem_n floats, grid $small_grid, 1 round" "$few"
    line "  $mem_rounds rounds ($insts IR instructions)" "$many"
    line "  growth per 1000 instructions, bytes" "$per_k" "" "" "< 1"
    awk -v g="$per_k" 'BEGIN { exit !(g >= 1) }' &&
        misses="$misses\n  memory: $per_k bytes more per 1000 instructions, goal under 1"
    read -r saved regs shared kib <<<"$(stated_memory reduce)"
    echo "  stated for reduce (docs/cpu-backend.md): $cores workers x ($cta threads x (48 + 8 x $saved"
    echo "    registers saved of its $regs) + $shared bytes shared) = $kib KiB, whatever the grid"
}

echo "bench/cpu: silkc exec (the CPU backend) against plain C ($cc -O2 -ffp-contract=off,"
echo "$("$cc" --version 2>/dev/null | head -1)); $cores cores, wall clock, best of $runs rounds"
line "" "silkc s" "C s" ratio goal
bench_saxpy
bench_reduce
bench_sgemm
bench_compute
bench_memory
[ -n "$notes" ] && printf 'notes:%b\n' "$notes"
if [ -n "$misses" ]; then
    printf 'goals missed:%b\n' "$misses"
else
    echo "all goals met: saxpy within 20 x C, >= 50 M IR instructions/s on a core, memory flat"
    echo "in CTAs and instructions"
fi
exit 0
