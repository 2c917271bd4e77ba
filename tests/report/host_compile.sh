#!/bin/sh
# host_compile.sh: every launch and verification snippet `silk-occ report`
# prints for the project's own CUDA files (tests/cuda/*.cu,
# tests/report/inputs/*.cu but the two cluster.sh compiles with more
# options) on sm_80, sm_90 and sm_120, with and without --work (the
# second through merge, from the first's JSON), compiles with nvcc
# against the kernels it names.  Each snippet becomes a function of a file
# that includes the .cu; the "..." of a launch become arguments of the
# kernel's parameter types (from its demangled title), or, for an
# extern "C" kernel whose symbol has no types, a parameter pack of a
# function template (then nvcc checks all but the call's arguments).
# Files marked "// corpus-nvcc-flags:" are compiled with those flags, and
# "// corpus-dyn-smem:" sizes --dyn-smem as corpus.sh does.  Skipped
# (exit 77) without nvcc or jq.
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}"
cd "$SILK_SRCDIR" || exit 99
# shellcheck source=tests/report/lib.sh
. tests/report/lib.sh
nvcc=${SILK_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ] || ! command -v jq >/dev/null; then
    echo "SKIP: host_compile.sh: no nvcc ($nvcc) or no jq: no snippet was compiled"
    exit 77
fi

# params TITLE: the kernel's parameter types, one per line, from the
# demangled title's last top-level parenthesis; nothing for a bare name.
params() {
    printf '%s\n' "$1" | awk '{
        s = $0; n = length(s)
        if (substr(s, n, 1) != ")") exit
        depth = 0
        for (i = n; i > 0; i--) {
            c = substr(s, i, 1)
            if (c == ")" || c == ">") depth++
            else if (c == "(" || c == "<") { depth--; if (depth == 0) break }
        }
        list = substr(s, i + 1, n - i - 1); depth = 0; item = ""
        for (j = 1; j <= length(list); j++) {
            c = substr(list, j, 1)
            if (c == "<" || c == "(") depth++
            if (c == ">" || c == ")") depth--
            if (c == "," && depth == 0) { print item; item = ""; continue }
            item = item c
        }
        if (item != "" && item != "void") print item
    }' | sed 's/^ *//'
}

# snippet ID TITLE CODE: CODE as a function that can be compiled.
snippet() {
    id=$1 title=$2 code=$3
    types=$(params "$title")
    case $title in
    *"("*")") typed=1 ;;
    *) typed=0 ;;
    esac
    if [ $typed = 1 ]; then
        printf 'static void snippet_%s(int n, size_t dyn_smem_bytes, cudaStream_t stream)\n{\n' "$id"
        args="" i=0
        printf '%s\n' "$types" | while IFS= read -r t; do
            [ -n "$t" ] && printf '    %s a%s{};\n' "$t" "$i"
            i=$((i + 1))
        done
        k=$(printf '%s\n' "$types" | grep -c .)
        i=0
        while [ $i -lt "$k" ]; do
            args="$args${args:+, }a$i"
            i=$((i + 1))
        done
    else
        printf 'template <class... Args>\nvoid snippet_%s(int n, size_t dyn_smem_bytes, cudaStream_t stream, Args... args)\n{\n' "$id"
        args="args..."
    fi
    printf '%s\n' "$code" | sed "s/(\.\.\.)/($args)/; s/, \.\.\.);/${args:+, }$args);/; s/(\.\.\., /($args, /"
    printf '    (void)n; (void)dyn_smem_bytes; (void)stream;\n}\n'
}

compiled=0
for cu in tests/cuda/*.cu tests/report/inputs/*.cu; do
    case $cu in # cluster.sh compiles these, with more options
    */cluster.cu | */launch_rules.cu) continue ;;
    esac
    flags=$(sed -n 's|^// corpus-nvcc-flags: *||p' "$cu" | head -1)
    dyn=$(sed -n 's|^// corpus-dyn-smem: *||p' "$cu" | head -1)
    archs=sm_80,sm_90,sm_120
    grep -q '__cluster_dims__\|__launch_bounds__([^)]*,[^)]*,' "$cu" && archs=sm_90,sm_120
    base=$(basename "$cu" .cu)
    harness="$work/$base-harness.cu"
    # Host code is the host pass's (a device pass may lack a kernel that
    # only some targets compile, as a build's launcher would).
    printf '#include "%s"\n#ifndef __CUDA_ARCH__\n' "$PWD/$cu" >"$harness"
    # The report without a work size, then with one: the second is the
    # first's JSON read back by merge (no second nvcc compile), which
    # prints what report prints (tests/report/merge.sh).
    # shellcheck disable=SC2086
    "$SILK_OCC" report "$cu" --arch "$archs" ${dyn:+--dyn-smem "$dyn"} \
        ${flags:+--nvcc-flags "$flags"} --format json >"$work/$base.first.json" 2>"$work/$base.err" ||
        { fail "report $cu: $(head -3 "$work/$base.err")"; continue; }
    for run in "" "--work 1000000"; do
        # shellcheck disable=SC2086
        "$SILK_OCC" merge "$work/$base.first.json" $run ${dyn:+--dyn-smem "$dyn"} \
            --format json >"$work/$base.json" 2>"$work/$base.err" ||
            { fail "merge $cu $run: $(head -3 "$work/$base.err")"; continue; }
        jq -r '.reports[] | select(.selected != null) | [.kernel, (.host_code.cuda | @base64),
            (.verification | @base64)] | @tsv' "$work/$base.json" >"$work/$base.tsv"
        while IFS="$(printf '\t')" read -r title launch verify; do
            compiled=$((compiled + 1))
            snippet "l$compiled" "$title" "$(echo "$launch" | base64 -d)" >>"$harness"
            snippet "v$compiled" "$title" "$(echo "$verify" | base64 -d)" >>"$harness"
        done <"$work/$base.tsv"
    done
    echo '#endif' >>"$harness"
    # The report compiles the file for all its targets at once, as a build
    # does (CUB's namespaces name the whole list): so does the harness.
    gencode=$(echo "$archs" | tr , '\n' | sed 's/sm_\(.*\)/-gencode arch=compute_\1,code=compute_\1/')
    # shellcheck disable=SC2086
    "$nvcc" -c $flags $gencode -o "$work/$base.o" "$harness" 2>"$work/$base.nvcc" ||
        fail "$cu: the report's snippets do not compile: $(grep -m3 error "$work/$base.nvcc")"
done
[ $compiled -gt 50 ] || fail "only $compiled snippets pairs compiled"
[ $failures = 0 ] || exit 1
echo "PASS: host_compile.sh: $compiled launch and verification pairs"
