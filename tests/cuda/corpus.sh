#!/bin/sh
# corpus.sh: `silk-occ report` on real CUDA code (tests/cuda/*.cu), checked
# against the toolchain and cuda_occupancy.h, never against silk-occ itself.
#
# For each .cu file, `silk-occ report --format json` on the .cu for all
# targets at once (sm_80 sm_86 sm_90 sm_120, or $CORPUS_TARGETS), as a
# user would, with one change: its nvcc is a wrapper that runs nvcc and
# keeps the PTX it wrote for each target (one compile with every target's
# -gencode, as a build), so that nvcc compiles each file once, not twice.  Then per target, on that PTX, `ptxas -v
# --gpu-name TARGET -o NAME.cubin` (-c for -rdc=true files, whose cubin is
# not a form here): ptxas's kernels, registers, static shared memory,
# spills and barriers, and the cubin it wrote (the cubin nvcc -cubin
# makes: nvcc's is ptxas's); the PTX's .maxntid/.reqntid; and `silk-occ
# report` on the .ptx and on the .cubin.  Then, per target and form:
#   - the kernel symbols reported ("symbol", the mangled name) are exactly
#     those ptxas compiled for that target; "kernel" is the demangled name;
#   - registers and static shared memory are ptxas's, and so are the
#     spills for .cu and .ptx input (a cubin does not record them);
#   - the rows are the block sizes the kernel permits: every one of
#     64 128 256 512 1024 up to its .maxntid, and the bound itself; only
#     the .reqntid size when it has one (or the bound a library fixes:
#     selected.pin); none above the bound;
#   - every row's dynamic_smem is the file's --dyn-smem expression at the
#     row's size (evaluated here; warps = ceil(threads / 32)), and its
#     active_blocks_per_sm is what tests/cuda/occ_oracle, that is
#     cudaOccMaxActiveBlocksPerMultiprocessor on ptxas's figures, answers;
#   - the .cu, .ptx and .cubin forms give the same rows.
# And --kernel GLOB matches demangled and mangled names.
#
# A file's first lines may say how it is compiled and launched:
#   // corpus-nvcc-flags: -rdc=true       (nvcc and --nvcc-flags)
#   // corpus-dyn-smem: EXPR              (--dyn-smem; over threads, warps)
#
# Skipped (exit 77) without nvcc, ptxas or the oracle program (built only
# when configure found cuda_occupancy.h).  Run by make check, which sets
# SILK_OCC, SILK_SRCDIR, REPORT_ROWS, OCC_ORACLE (and CHECK_SCHEMA).
set -u

# ---- one file's job (run in parallel through xargs, see below) -----------
# --job FILE: silk-occ's report of the .cu for every target, through the
# nvcc wrapper (--nvcc below) that leaves each target's PTX in
# $work/NAME/TARGET; then for each target ptxas -v on that PTX, its cubin,
# and silk-occ's reports of the PTX and the cubin.  A failing step writes
# its message to a file "failed" there.
if [ "${1:-}" = --job ]; then
    file=$2
    name=${file##*/}
    name=${name%.cu}
    flags=$(sed -n 's|^// corpus-nvcc-flags: *||p' "$file" | head -1)
    dyn=$(sed -n 's|^// corpus-dyn-smem: *||p' "$file" | head -1)
    d=$work/$name
    mkdir -p "$d"
    set --
    [ -n "$dyn" ] && set -- --dyn-smem "$dyn"
    [ -n "$flags" ] && set -- "$@" --nvcc-flags "$flags"
    CORPUS_PTX_DIR=$d SILK_NVCC=$self_nvcc "$SILK_OCC" report "$file" --arch "$arch_list" \
        --format json "$@" >"$d/cu.json" 2>"$d/cu.err"
    echo $? >"$d/cu.rc"
    case " $flags " in *" -rdc=true "*) rdc=1 ;; *) rdc=0 ;; esac
    for target in $targets; do
        t=$d/$target
        mkdir -p "$t"
        if [ ! -s "$t/$name.ptx" ]; then
            echo "nvcc -fatbin --keep (-gencode for $arch_list) $flags $file: no PTX (silk-occ report: $(head -3 "$d/cu.err"))" >"$t/failed"
            continue
        fi
        # One ptxas run gives the figures and the cubin.
        if [ $rdc = 1 ]; then
            set -- -c -o /dev/null
        else
            set -- -o "$t/$name.cubin"
        fi
        if ! "$ptxas" -v "$@" --gpu-name "$target" "$t/$name.ptx" 2>"$t/ptxas-v.txt"; then
            echo "ptxas -v $* --gpu-name $target $t/$name.ptx: $(cat "$t/ptxas-v.txt")" >"$t/failed"
            continue
        fi
        set --
        [ -n "$dyn" ] && set -- --dyn-smem "$dyn"
        "$SILK_OCC" report "$t/$name.ptx" --arch "$target" --format json "$@" \
            >"$t/ptx.json" 2>"$t/ptx.err"
        echo $? >"$t/ptx.rc"
        if [ $rdc = 0 ]; then
            "$SILK_OCC" report "$t/$name.cubin" --arch "$target" --format json "$@" \
                >"$t/cubin.json" 2>"$t/cubin.err"
            echo $? >"$t/cubin.rc"
        fi
    done
    exit 0
fi

# --nvcc ARGS...: nvcc as silk-occ report runs it (-fatbin, one -gencode
# arch=compute_A,code=compute_A per target, --keep --keep-dir DIR ...,
# all targets in one run), which then copies each target's kept PTX
# (DIR/input.compute_A.ptx, or DIR/input.ptx for a list of one) to
# $CORPUS_PTX_DIR/sm_A/NAME.ptx.
if [ "${1:-}" = --nvcc ]; then
    shift
    keep= archs= prev=
    for a; do
        [ "$prev" = --keep-dir ] && keep=$a
        case $prev,$a in -gencode,arch=compute_*) v=${a#arch=compute_} archs="$archs ${v%%,*}" ;; esac
        prev=$a
    done
    "$nvcc" "$@" || exit
    name=${CORPUS_PTX_DIR##*/}
    for v in $archs; do
        f=$keep/input.compute_$v.ptx
        [ -f "$f" ] || f=$keep/input.ptx
        [ -n "$keep" ] && [ -f "$f" ] || continue
        mkdir -p "$CORPUS_PTX_DIR/sm_$v" && cp "$f" "$CORPUS_PTX_DIR/sm_$v/$name.ptx"
    done
    exit 0
fi

: "${SILK_OCC:?}" "${SILK_SRCDIR:?}"
self=$(cd "$(dirname "$0")" && pwd)/${0##*/}
cd "$SILK_SRCDIR" || exit 99
report_rows=${REPORT_ROWS:-$PWD/tests/cuda/report_rows}
oracle=${OCC_ORACLE:-$PWD/tests/cuda/occ_oracle}
nvcc=${SILK_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ptxas=${SILK_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
targets=${CORPUS_TARGETS:-sm_80 sm_86 sm_90 sm_120}
[ -x "$nvcc" ] || { echo "SKIP: corpus.sh: no nvcc ($nvcc; SILK_NVCC names it)"; exit 77; }
[ -x "$ptxas" ] || { echo "SKIP: corpus.sh: no ptxas ($ptxas; SILK_PTXAS names it)"; exit 77; }
[ -x "$oracle" ] || {
    echo "SKIP: corpus.sh: no oracle program $oracle (built by make check when configure finds cuda_occupancy.h)"
    exit 77
}
[ -x "$report_rows" ] || { echo "SKIP: corpus.sh: $report_rows not built (make check builds it)"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086 # the targets are words
arch_list=$(printf '%s\n' $targets | paste -sd , -)
# The nvcc wrapper: this script, run with --nvcc.
self_nvcc=$work/nvcc
printf '#!/bin/sh\nexec sh "%s" --nvcc "$@"\n' "$self" >"$self_nvcc"
chmod +x "$self_nvcc"
export SILK_OCC nvcc ptxas arch_list work targets self_nvcc
fails=$work/fails
: >"$fails"
fail() { printf 'FAIL: %s\n' "$*" >>"$fails"; }
jobs=$(nproc 2>/dev/null || echo 2)

files=$(ls tests/cuda/*.cu)
# The largest files first, so that the last job is a short one.
# shellcheck disable=SC2086 # the files are words
ls -S $files | xargs -P "$jobs" -L 1 sh "$self" --job

# ---- what the toolchain says ---------------------------------------------

# ptxas -v: "symbol regs static_smem spill_stores spill_loads barriers" per
# entry function (device functions' blocks are not kernels).
ptxas_figures() {
    awk '
        /Compiling entry function/ {
            entry = $0
            sub(/.*Compiling entry function \047/, "", entry); sub(/\047.*/, "", entry)
            order[++n] = entry; regs[entry] = "?"; smem[entry] = 0; bars[entry] = 0
        }
        /Function properties for/ { current = $NF }
        /bytes spill stores/ {
            for (i = 1; i <= NF; i++) {
                if ($i == "spill" && $(i + 1) ~ /^stores/) stores[current] = $(i - 2)
                if ($i == "spill" && $(i + 1) ~ /^loads/) loads[current] = $(i - 2)
            }
        }
        /Used [0-9]+ registers/ {
            for (i = 1; i <= NF; i++) {
                if ($i == "Used") regs[entry] = $(i + 1)
                if ($i ~ /^barriers/) bars[entry] = $(i - 1)
                if ($i ~ /^smem/ && $(i - 1) == "bytes") smem[entry] = $(i - 2)
            }
        }
        END {
            for (i = 1; i <= n; i++) {
                e = order[i]
                print e, regs[e], smem[e], (e in stores ? stores[e] : "?"), (e in loads ? loads[e] : "?"), bars[e]
            }
        }' "$1"
}

# The PTX's bounds: "symbol maxntid reqntid" per .entry (0: none), the
# product of the directive's dimensions.
ptx_bounds() {
    awk '
        function product(line,   d, n, i, p) {
            sub(/^[ \t]*\.[a-z]+[ \t]*/, "", line); gsub(/[ \t]/, "", line)
            n = split(line, d, ","); p = 1
            for (i = 1; i <= n; i++) p *= d[i]
            return p
        }
        /\.entry[ \t]/ {
            name = $0; sub(/.*\.entry[ \t]+/, "", name); sub(/[ \t]*\(.*/, "", name)
            header = 1; max[name] = 0; req[name] = 0; order[++n] = name
            next
        }
        header && /^[ \t]*\.maxntid/ { max[name] = product($0) }
        header && /^[ \t]*\.reqntid/ { req[name] = product($0) }
        header && /^[ \t]*\{/ { header = 0 }
        END { for (i = 1; i <= n; i++) print order[i], max[order[i]], req[order[i]] }' "$1"
}

# ---- the checks of one report form on one target -------------------------
# check_form FILE TARGET FORM SPILLS: checks $d/lines.FORM (report_rows's
# lines of the run) against $d/expected, $d/bounds and $d/dyn; appends
# failures to $fails, oracle questions to $work/questions
# ("context<TAB>CTAs<TAB>question") and the form's rows to $d/rows.FORM
# ("symbol threads dyn CTAs regs smem", sorted).
check_form() {
    file=$1 target=$2 form=$3 spills=$4
    : >"$d/rows.$form.u"
    awk -F '\t' -v t="$target" '$2 == t' "$d/lines.$form" >"$d/mine.$form"
    awk -F '\t' -v file="$file" -v target="$target" -v form="$form" -v spills="$spills" \
        -v fails="$fails" -v questions="$work/questions" -v rows="$d/rows.$form.u" '
        function fail(msg) { print "FAIL: " file " (." form ", " target "): " msg >>fails }
        FILENAME == ARGV[1] { split($0, w, " "); regs[w[1]] = w[2]; smem[w[1]] = w[3]
                              ss[w[1]] = w[4]; sl[w[1]] = w[5]; bars[w[1]] = w[6]; want[w[1]] = 1; next }
        FILENAME == ARGV[2] { split($0, w, " "); max[w[1]] = w[2]; req[w[1]] = w[3]; next }
        FILENAME == ARGV[3] { split($0, w, " "); dyn[w[1]] = w[2]; next }
        $1 == "K" {
            s = $3
            if ($4 != 1)
                print "FAIL: " file " (." form "): the reports have no \"symbol\" key (the mangled name)" >>fails
            else if (s ~ /^_Z/ && ($9 == s || $9 ~ /^_Z/))
                fail("kernel \"" $9 "\" is not demangled")
            else if (s !~ /^_Z/ && $9 != s)
                fail("kernel \"" $9 "\" for the unmangled symbol " s)
            if (s in seen) fail("reported twice: " s)
            seen[s] = 1
            if (!(s in want)) { fail("reported, but ptxas compiled no such kernel: " s); next }
            # A library kernel keeps its launch: its bound is its only row.
            pin[s] = $10
            if (pin[s] > 0 && pin[s] != max[s] && pin[s] != req[s])
                fail(s ": pinned to " pin[s] " threads, not its bound " max[s])
            if ($5 != regs[s] || $6 != smem[s])
                fail(s ": registers, static smem " $5 ", " $6 "; ptxas -v " regs[s] ", " smem[s])
            if (spills && ($7 != ss[s] || $8 != sl[s]))
                fail(s ": spill stores, loads " $7 ", " $8 "; ptxas -v " ss[s] ", " sl[s])
            next
        }
        $1 == "R" {
            s = $3; threads = $4
            if (!(s in want)) next
            has[s, threads] = 1
            bound = req[s] > 0 ? req[s] : max[s]
            if (req[s] > 0 && threads != req[s])
                fail(s ": a row of " threads " threads; .reqntid fixes " req[s])
            else if (pin[s] > 0 && threads != pin[s])
                fail(s ": a row of " threads " threads; its library fixes " pin[s])
            else if (threads > (bound > 0 ? bound : 1024))
                fail(s ": a row of " threads " threads, above the bound " (bound > 0 ? bound : 1024))
            if ($5 != dyn[threads])
                fail(s ": dynamic_smem " $5 " at " threads " threads; the expression gives " dyn[threads])
            if ($7 != regs[s] || $8 != smem[s])
                fail(s ": row " threads ": registers, static smem " $7 ", " $8 "; ptxas -v " regs[s] ", " smem[s])
            printf "%s (.%s, %s): %s at %s threads\t%s\t%s %s %s %s %s %s %s\n", file, form, target, s, threads,
                $6, target, regs[s], smem[s], threads, dyn[threads], bars[s], bound >>questions
            print s, threads, $5, $6, $7, $8 >>rows
        }
        END {
            for (s in want) {
                if (!(s in seen)) { fail("not reported: " s); continue }
                if (req[s] > 0 || pin[s] > 0) {
                    fixed = req[s] > 0 ? req[s] : pin[s]
                    if (!has[s, fixed]) fail(s ": no row for its fixed size " fixed)
                    continue
                }
                bound = max[s] > 0 ? max[s] : 1024
                split("64 128 256 512 1024", sizes, " ")
                for (i = 1; i <= 5; i++)
                    if (sizes[i] <= bound && !has[s, sizes[i]])
                        fail(s ": no row for " sizes[i] " threads (permitted up to " bound ")")
                if (!has[s, bound]) fail(s ": no row for its bound, " bound " threads")
            }
        }' "$d/expected" "$d/bounds" "$d/dyn" "$d/mine.$form"
    sort "$d/rows.$form.u" >"$d/rows.$form"
}

# ran JSON RC ERR WHAT: true when silk-occ's run succeeded, else a failure.
ran() {
    if [ ! -f "$2" ]; then
        fail "$4: not run"
        return 1
    fi
    if [ "$(cat "$2")" != 0 ]; then
        fail "$4: silk-occ report exited $(cat "$2"): $(head -3 "$3")"
        return 1
    fi
}

# lines JSON OUT WHAT: report_rows's lines of a run, true when it read it.
lines() {
    "$report_rows" "$1" >"$2" 2>"$work/rows.err" && return 0
    fail "$3: $(cat "$work/rows.err")"
    return 1
}

n_files=0 n_entries=0
: >"$work/questions"
for f in $files; do
    name=${f##*/}
    name=${name%.cu}
    n_files=$((n_files + 1))
    flags=$(sed -n 's|^// corpus-nvcc-flags: *||p' "$f" | head -1)
    expr=$(sed -n 's|^// corpus-dyn-smem: *||p' "$f" | head -1)
    cu_ok=0
    if ran "$work/$name/cu.json" "$work/$name/cu.rc" "$work/$name/cu.err" "$f (.cu)" &&
        lines "$work/$name/cu.json" "$work/$name/lines.cu" "$f (.cu)"; then
        cu_ok=1
        if [ -n "${CHECK_SCHEMA:-}" ] && ! "$CHECK_SCHEMA" "$work/$name/cu.json" >"$work/schema" 2>&1; then
            fail "$f (.cu): the JSON does not match docs/report-schema.json: $(tail -3 "$work/schema")"
        fi
    fi
    for t in $targets; do
        d=$work/$name/$t
        if [ -f "$d/failed" ]; then
            fail "$f ($t): $(cat "$d/failed")"
            continue
        fi
        ptxas_figures "$d/ptxas-v.txt" >"$d/expected"
        ptx_bounds "$d/$name.ptx" >"$d/bounds"
        n_entries=$((n_entries + $(wc -l <"$d/expected")))
        forms=
        [ $cu_ok = 1 ] && cp "$work/$name/lines.cu" "$d/lines.cu" && forms=cu
        if ran "$d/ptx.json" "$d/ptx.rc" "$d/ptx.err" "$f ($t, .ptx)" &&
            lines "$d/ptx.json" "$d/lines.ptx" "$f ($t, .ptx)"; then
            forms="$forms ptx"
        fi
        case " $flags " in
        *" -rdc=true "*) ;; # a relocatable cubin is not a form here
        *)
            if ran "$d/cubin.json" "$d/cubin.rc" "$d/cubin.err" "$f ($t, .cubin)" &&
                lines "$d/cubin.json" "$d/lines.cubin" "$f ($t, .cubin)"; then
                forms="$forms cubin"
            fi
            ;;
        esac
        # The dynamic shared memory at every size reported, computed here:
        # "threads bytes" (warps is ceil(threads / 32)).
        : >"$d/dyn"
        for form in $forms; do cat "$d/lines.$form"; done |
            awk -F '\t' -v t="$t" '$1 == "R" && $2 == t && $4 ~ /^[0-9]+$/ { print $4 }' | sort -un |
            while read -r threads; do
                # shellcheck disable=SC2034 # the expression may use it
                warps=$(((threads + 31) / 32))
                bytes=0
                [ -n "$expr" ] && eval "bytes=\$(( $expr ))"
                echo "$threads $bytes" >>"$d/dyn"
            done
        for form in $forms; do
            spills=1
            [ "$form" = cubin ] && spills=0 # a cubin does not record spills
            check_form "$f" "$t" "$form" $spills
        done
        # The forms agree row by row (symbol threads dyn CTAs regs smem).
        first=
        for form in $forms; do
            if [ -z "$first" ]; then
                first=$form
            elif ! cmp -s "$d/rows.$first" "$d/rows.$form"; then
                fail "$f ($t): the .$first and .$form reports differ (symbol threads dyn CTAs regs smem): $(diff "$d/rows.$first" "$d/rows.$form" | grep '^[<>]' | head -6 | tr '\n' ';')"
            fi
        done
    done
done

# ---- every row against cuda_occupancy.h ----------------------------------
cut -f3 "$work/questions" | "$oracle" >"$work/answers" 2>"$work/oracle.err" ||
    fail "occ_oracle: $(cat "$work/oracle.err")"
n_rows=$(wc -l <"$work/questions")
paste "$work/questions" "$work/answers" | awk -F '\t' '$2 != $4 {
    print "FAIL: " $1 ": " $2 " CTAs per SM; cudaOccMaxActiveBlocksPerMultiprocessor(" $3 "): " $4 }' >>"$fails"

# ---- --kernel GLOB matches the demangled and the mangled name -------------
d=$work/long_names/sm_90
if [ -f "$d/long_names.ptx" ]; then
    for case in '*batched_small_matvec<float*:2' '_ZN6corpus6linalg6detail20batched_small_matvecId*:1'; do
        glob=${case%:*} want=${case##*:}
        if "$SILK_OCC" report "$d/long_names.ptx" --arch sm_90 --kernel "$glob" --format json \
            >"$work/glob.json" 2>"$work/glob.err"; then
            got=$("$report_rows" "$work/glob.json" | grep -c '^K')
            [ "$got" = "$want" ] || fail "--kernel '$glob': $got kernels of long_names.cu, want $want"
        else
            fail "--kernel '$glob': exit $?: $(head -1 "$work/glob.err")"
        fi
    done
fi

if [ -s "$fails" ]; then
    awk '!seen[$0]++' "$fails"
    echo "corpus: $(awk '!seen[$0]++' "$fails" | grep -c '^FAIL') failures ($n_files files, $n_entries kernel x target entries, $n_rows rows)"
    exit 1
fi
echo "corpus: $n_files files, $n_entries kernel x target entries, $n_rows rows, all agree with cuda_occupancy.h"
exit 0
