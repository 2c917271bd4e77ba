#!/bin/sh
# examples_oracle.sh: the AMD engine agrees with LLVM on real Silk kernels
# (issue 15, item 4, first half).  Every example and every golden program
# that compiles, on gfx90a, gfx942, gfx1100 and gfx1201, as written and at
# each @launch size of SIZES (the file's @launch(N[, M]) rewritten to N;
# a program whose host code fixes its launch size then does not compile
# and is listed): `silk-occ report --arch gfx90a,gfx942,gfx1100,gfx1201
# --format json` compiles it as a user's run does, with one change: its
# llc is a wrapper that runs llc-19 with
# -pass-remarks-analysis=kernel-resource-usage added and keeps the remarks
# per target.  For every kernel, the remark's "Occupancy [waves/SIMD]"
# must be the waves_per_simd that the report gives for it (its figures
# read from the code object that very llc run wrote and ld.lld linked).
# A program that silkc refuses (a source error at a rewritten size, or a
# construct without an AMD form) is listed, not compared; one whose
# kernels disagree fails the test.  One report for the four targets, not
# a silkc, an llc and a report per target: the same comparisons in a
# third of the processes.
#
# Needs llc-19 and ld.lld-19 ($SILK_LLC, $SILK_LLD) and jq; exits 77
# naming what is missing.  Run by make check (SILKC, SILK_OCC, SILK_SRCDIR).
set -u
: "${SILKC:?}" "${SILK_OCC:?}" "${SILK_SRCDIR:?}"
LLC=${SILK_LLC:-llc-19}
for tool in "$LLC" "${SILK_LLD:-ld.lld-19}" jq; do
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done
LLC=$(command -v "$LLC")
TARGETS="gfx90a gfx942 gfx1100 gfx1201"
SIZES=${SIZES:-"64 256 1024"}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
fail=0 compared=0 refused=0

# llc as the report runs it, with the remarks kept in $work/remarks/CPU.
cat >"$work/llc" <<WRAPPER
#!/bin/sh
for a; do case \$a in -mcpu=*) cpu=\${a#-mcpu=} ;; esac; done
"$LLC" "\$@" -pass-remarks-analysis=kernel-resource-usage 2>"$work/remarks/\$cpu" && exit 0
status=\$?
grep -v '^remark: ' "$work/remarks/\$cpu" >&2
exit \$status
WRAPPER
chmod +x "$work/llc"
all=$(echo $TARGETS | tr ' ' ,)

# report SRC ARCHS: silk-occ's JSON in $work/json, the remarks in $work/remarks.
report() {
    rm -rf "$work/remarks" && mkdir "$work/remarks"
    SILK_LLC=$work/llc "$SILK_OCC" report "$1" --arch "$2" --format json >"$work/json" 2>"$work/occ_err"
}

# compare NAME T: the remarks of target T against the report's kernels.
compare() {
    awk '/Function Name:/ { k = $NF } /Occupancy \[waves\/SIMD\]:/ { print k, $NF }' \
        "$work/remarks/$2" 2>/dev/null | sort >"$work/llvm"
    # LLVM counts at the kernel's flat-work-group-size: the row of that size.
    jq -r --arg t "$2" '.reports[] | select(.arch == $t) |
        (.launch_bounds.reqntid // .launch_bounds.maxntid) as $n |
        "\(.kernel) \(.occupancy_table[] | select(.threads == $n) | .waves_per_simd)"' "$work/json" |
        sort >"$work/ours"
    compared=$((compared + $(wc -l <"$work/llvm")))
    if [ ! -s "$work/llvm" ] || ! cmp -s "$work/llvm" "$work/ours"; then
        echo "FAIL: $1 on $2: llc-19 [$(tr '\n' ';' <"$work/llvm")] silk-occ [$(tr '\n' ';' <"$work/ours")]"
        fail=1
    fi
}

for f in "$SILK_SRCDIR"/examples/*.silk "$SILK_SRCDIR"/tests/golden/programs/*.silk; do
    grep -q '@launch(' "$f" || continue
    for n in as-written $SIZES; do
        src=$work/$(basename "$f" .silk)_$n.silk
        name="$(basename "$f") @launch($n)"
        if [ "$n" = as-written ]; then cp "$f" "$src"; else sed "s/@launch([0-9]*/@launch($n/" "$f" >"$src"; fi
        # Other files of the program (./ imports) beside it.
        for dep in "$(dirname "$f")"/*.silk; do
            [ -e "$work/$(basename "$dep")" ] || cp "$dep" "$work/"
        done
        # A source error is every target's: listed once, counted for each.
        if ! "$SILKC" check "$src" >/dev/null 2>"$work/err"; then
            refused=$((refused + $(echo $TARGETS | wc -w)))
            echo "note: $name: not compiled: $(head -n 1 "$work/err")"
            continue
        fi
        if report "$src" "$all"; then
            for t in $TARGETS; do compare "$name" "$t"; done
            continue
        fi
        # Some target refused it: each target alone, to tell which.
        for t in $TARGETS; do
            if ! "$SILKC" compile --arch "$t" --emit=llvm -o "$work/k.ll" "$src" >/dev/null 2>"$work/err"; then
                refused=$((refused + 1))
                echo "note: $name on $t: not compiled: $(head -n 1 "$work/err")"
            elif report "$src" "$t"; then
                compare "$name" "$t"
            else
                echo "FAIL: $name on $t: silk-occ report failed: $(head -n 1 "$work/occ_err")"
                fail=1
            fi
        done
    done
done
echo "$compared kernel configurations agree with $LLC; $refused compilations refused by silkc"
[ "$compared" -gt 0 ] || fail=1
exit $fail
