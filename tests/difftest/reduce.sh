#!/bin/sh
# reduce.sh: a Silk program on which the optimiser is wrong, reduced to a
# small one that still shows it, for a bug report and a regression case
# (tests/difftest/regressions/).
#
#   reduce.sh [--crash] [-o OUT] PROGRAM.silk [EXEC-OPTIONS...]
#
# PROGRAM runs with EXEC-OPTIONS (`--kernel K --grid G --workspace W
# --arg ... --buf ...`, as silkc exec takes them), by default those of its
# first line `// exec: ...` (silkgen's programs, the differential test's
# failures).  What is kept, "interesting" in C-Vise's word, is:
#
#   - always: `silkc check` accepts the program (exit 0, no error; a
#     warning is let through, as a variable whose last use C-Vise took
#     away is unused until the next step takes its declaration);
#   - by default: `silkc exec -O0` runs cleanly and `silkc exec` with the
#     passes gives other buffers or another exit status (a fault);
#   - with --crash: `silkc exec` at -O0 or with the passes dies by a
#     signal, or says the IR failed verification (a compiler bug).
#
# Each silkc run has 10 s (a run past it, a loop the reduction made
# endless, is not interesting).  The steps: C-Vise (`cvise --not-c`, with
# the passes of reduce-passes.json: C-Vise's language-independent ones
# that a Silk program gets smaller by, lines, balanced brackets, a few
# tokens, integers; not C-Vise's default group, whose peephole pass alone
# tries 16,000 variants of a program of twenty lines) on the program, the exec line kept aside so that C-Vise cannot break it; then
# each parameter of the kernel, last first, dropped from the signature
# and its --arg or --buf from the exec line, kept dropped when the program
# stays interesting (what C-Vise left of the body rarely shrinks again
# for it, and a second C-Vise run costs as much as the first).  OUT (default
# PROGRAM's name with .reduced.silk) gets the result, its first line the
# exec line it runs with; a line says the sizes before and after.
#
# SILKC names the silkc to run (default: silkc on PATH), CVISE C-Vise
# (default cvise; Debian package cvise; C-Vise's own --n is the cores).
# Exit 0 with OUT written; 1 when PROGRAM is not interesting to begin
# with; 2 on a usage error; 77 when cvise is missing.
set -u
usage() {
    echo "usage: reduce.sh [--crash] [-o OUT] PROGRAM.silk [EXEC-OPTIONS...]" >&2
    exit 2
}
kind=differ out=""
while [ $# -gt 0 ]; do
    case $1 in
    --crash) kind=crash; shift ;;
    -o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    -*) usage ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || usage
program=$1
shift
[ -r "$program" ] || { echo "reduce.sh: $program: cannot read it" >&2; exit 2; }
[ -n "$out" ] || out=${program%.silk}.reduced.silk
silkc=${SILKC:-silkc}
cvise=${CVISE:-cvise}
passes=$(cd "$(dirname "$0")" && pwd)/reduce-passes.json
command -v "$cvise" >/dev/null 2>&1 ||
    { echo "reduce.sh: SKIP: cvise (C-Vise, Debian package cvise) not found; set CVISE"; exit 77; }
case $silkc in /*) ;; */*) silkc=$(cd "$(dirname "$silkc")" && pwd)/$(basename "$silkc") ;; esac

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
# The exec line aside, the program without it.
if [ $# -gt 0 ]; then
    echo "$*" >"$work/exec-line"
else
    sed -n '1s|^// exec: ||p' "$program" >"$work/exec-line"
    [ -s "$work/exec-line" ] || { echo "reduce.sh: $program: no // exec: first line, and no EXEC-OPTIONS" >&2; exit 2; }
fi
sed '1{/^\/\/ exec: /d;}' "$program" >"$work/program.silk"

# The interestingness test, as C-Vise runs it: in a directory of its own
# holding program.silk, exit 0 when the program is interesting.
cat >"$work/interesting.sh" <<EOF
#!/bin/sh
silkc='$silkc' kind=$kind
exec_line=\$(cat '$work/exec-line')
EOF
cat >>"$work/interesting.sh" <<'EOF'
run() { timeout 10 "$silkc" "$@"; }
NO_COLOR=1 run check program.silk >check.log 2>&1 || exit 1
# shellcheck disable=SC2086 # the exec line is words
run exec program.silk -O0 --workers 1 $exec_line --out O0.bin >/dev/null 2>O0.log
low=$?
# shellcheck disable=SC2086
run exec program.silk --workers 1 $exec_line --out O.bin >/dev/null 2>O.log
high=$?
if [ "$kind" = crash ]; then
    for s in $low $high; do
        [ "$s" -gt 128 ] && [ "$s" -ne 137 ] && exit 0 # a signal; 137 is timeout's kill
    done
    grep -q 'failed verification.*a compiler bug' O0.log O.log
    exit
fi
[ "$low" -eq 0 ] || exit 1
[ "$high" -eq 124 ] && exit 1 # past the time: not a difference, a hang
[ "$high" -ne 0 ] || ! cmp -s O0.bin O.bin
EOF
chmod +x "$work/interesting.sh"

# interesting: the program and exec line in $work, tried as C-Vise would.
interesting() {
    rm -rf "$work/try" && mkdir "$work/try" && cp "$work/program.silk" "$work/try/" &&
        (cd "$work/try" && "$work/interesting.sh")
}
if ! interesting; then
    case $kind in
    crash) echo "reduce.sh: $program: silkc neither crashes nor fails verification on it (or silkc check does not accept it)" >&2 ;;
    *) echo "reduce.sh: $program: not a difference: -O0 does not run cleanly, or the passes give the same buffers (or silkc check does not accept it)" >&2 ;;
    esac
    exit 1
fi
before=$(wc -l <"$work/program.silk")

reduce_with_cvise() {
    (cd "$work" && "$cvise" --not-c --pass-group-file "$passes" --tidy --timeout 60 \
        --no-timing ./interesting.sh program.silk) \
        >>"$work/cvise.log" 2>&1 || { echo "reduce.sh: cvise failed:"; tail -n 5 "$work/cvise.log"; exit 1; }
}

# drop_parameter I: the program and exec line without the kernel's
# parameter I (1 the first) and its binding; false when the signature is
# not on one line.
drop_parameter() {
    kernel=$(awk '{ for (i = 1; i < NF; i++) if ($i == "--kernel") print $(i + 1) }' "$work/exec-line")
    awk -v k="$kernel" -v drop="$1" '
    !done && match($0, "(kernel|fn) " k "\\(") {
        head = substr($0, 1, RSTART + RLENGTH - 1); rest = substr($0, RSTART + RLENGTH)
        depth = 0; n = 1; params[1] = ""
        for (i = 1; i <= length(rest); i++) {
            c = substr(rest, i, 1)
            if (depth == 0 && c == ")") break
            if (c == "[" || c == "<" || c == "(") depth++
            if (c == "]" || c == ">" || c == ")") depth--
            if (depth == 0 && c == ",") { n++; params[n] = ""; continue }
            params[n] = params[n] c
        }
        if (drop > n) exit 1
        line = head; sep = ""
        for (j = 1; j <= n; j++)
            if (j != drop) { sub(/^ +/, "", params[j]); line = line sep params[j]; sep = ", " }
        print line substr(rest, i); done = 1; next
    }
    { print }
    END { if (!done) exit 1 }' "$work/program.silk" >"$work/dropped.silk" || return 1
    awk -v drop="$1" '{
        out = ""; p = 0
        for (i = 1; i <= NF; i++) {
            if (($i == "--arg" || $i == "--buf") && ++p == drop) { i++; continue }
            out = out (out == "" ? "" : " ") $i
        }
        print out
    }' "$work/exec-line" >"$work/dropped-line"
}

# The parameters' count, from the exec line's bindings.
bindings() { grep -o -e '--arg' -e '--buf' "$work/exec-line" | wc -l; }

reduce_with_cvise
dropped=0
i=$(bindings)
while [ "$i" -ge 1 ]; do
    if drop_parameter "$i"; then
        cp "$work/program.silk" "$work/kept.silk" && cp "$work/exec-line" "$work/kept-line"
        cp "$work/dropped.silk" "$work/program.silk" && cp "$work/dropped-line" "$work/exec-line"
        if interesting; then
            dropped=$((dropped + 1))
        else
            cp "$work/kept.silk" "$work/program.silk" && cp "$work/kept-line" "$work/exec-line"
        fi
    fi
    i=$((i - 1))
done

{ printf '// exec: %s\n' "$(cat "$work/exec-line")"; cat "$work/program.silk"; } >"$out"
echo "reduce.sh: $program: $before lines to $(wc -l <"$work/program.silk"), $dropped parameters dropped: $out"
