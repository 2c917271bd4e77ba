#!/bin/sh
# exported_names.sh: every name a library or program object exports carries
# its module's prefix (docs: the style guide's "Naming").
#
# A generic exported name collides at link time with the C library or with
# whatever else a program links: `accept` did, with POSIX accept(2).  This
# lists the defined global symbols of each library, and of the programs'
# objects in src/, with `nm` and fails, naming each offender, when one
# does not start with a prefix of the allow-list below.  A new module adds its
# prefix here, deliberately.  Run by `make check` from the build directory
# (SILK_BUILDDIR overrides); exits 77 (skipped) when nm is missing.
set -u
builddir=${SILK_BUILDDIR:-.}

command -v nm >/dev/null 2>&1 || { echo "SKIP: nm not found"; exit 77; }

# The prefixes each library's modules use, one alternation per library.
compiler='arena|ast|backend|build|builtin|c|cfg|compdb|compile|const|cubin|diag|fatbin|header|ir|jobs|lex|lower|measure|nvcc|occ_warn|parse|pass|ptx|ptxas|regest|run|scope|sema|silk_builtin|source|type|cpu|amdgpu'
occupancy='arch|occ|silk_builtin|amd|usage|measured'
# The installed API (issue 26): the one prefix the shared library exports.
public='silk_occ'
common='cleanup|colour|demangle|edit_distance|escape|format_bytes|json_file|output|read_file|size_expr|tempdir'
report='report'
verify='verify'
runtime='gpudrv|cudadrv|hipdrv|silkrt|cpu'
programs='cli|cmd|calc|report|verify|silkc|target|main|arch|options|json|diff|wrap|prune'

status=0

# check FILE... PREFIXES: every defined global of FILEs matches PREFIXES_*
# (or is one of the exact names in PREFIXES).
check() {
    prefixes=$1
    shift
    for file in "$@"; do
        [ -f "$file" ] || { echo "FAIL: $file is missing (build first)"; status=1; continue; }
        # Names the implementation reserves (a leading "__": the
        # sanitizers' __odr_asan.NAME, for one) are the toolchain's, not ours.
        bad=$(nm -g --defined-only "$file" | awk 'NF == 3 { print $3 }' | sort -u |
              grep -v '^__' | grep -Ev "^(($prefixes)_[A-Za-z0-9_]+|$prefixes)\$")
        if [ -n "$bad" ]; then
            echo "FAIL: $file exports names without a module prefix:"
            printf '%s\n' "$bad" | sed 's/^/    /'
            status=1
        fi
    done
}

check "$compiler" "$builddir/compiler/libsilkc.a"
check "$occupancy" "$builddir/occupancy/.libs/libsilkocc.a"
check "$public|$occupancy|$common" "$builddir/occupancy/.libs/libsilk-occ.a"
check "$common" "$builddir/common/libsilkcommon.a"
check "$report" "$builddir/report/libsilkreport.a"
check "$verify" "$builddir/verify/libsilkverify.a"
check "$runtime" "$builddir/std/runtime/libsilkrt.a"
check "$programs" "$builddir"/src/*.o

# The shared library exports the API and nothing else (-export-symbols-regex),
# so the engine's own names may change without an ABI break.
so=$builddir/occupancy/.libs/libsilk-occ.so
if [ -f "$so" ]; then
    bad=$(nm -D --defined-only "$so" | awk 'NF == 3 { print $3 }' | sort -u |
          grep -v '^_' | grep -Ev "^${public}_[A-Za-z0-9_]+\$")
    if [ -n "$bad" ]; then
        echo "FAIL: $so exports names outside the API:"
        printf '%s\n' "$bad" | sed 's/^/    /'
        status=1
    fi
fi

[ $status -eq 0 ] && echo "PASS: every exported name carries its module's prefix"
exit $status
