#!/bin/sh
# cc_O0.sh: the C compiler for the differential tests (tests/cpu/ and
# tests/difftest/differential.sh), with the CPU backend's -O2 made -O0:
#
#   CC_O0_CC="$CC" CC=.../cc_O0.sh silkc exec ...
#
# Those tests prove Silk's optimiser: the same kernel lowered as written
# (-O0) and through the IR passes must give the same bytes.  Both runs are
# compiled by cc at one level, so cc's own optimiser is no part of what
# they compare, and the generated C (PTX's semantics written out, fp
# contraction off) means the same at every level.  cc -O0 compiles it in
# half the time, which was a tenth of make check's.  Every other test of
# the CPU backend (tests/unit/check_cpu, exec_cli.sh, tests/build) runs
# the C as users get it, at -O2; so does `make fuzz-diff`.
set -u
for a; do
    shift
    [ "$a" = -O2 ] && a=-O0
    set -- "$@" "$a"
done
# shellcheck disable=SC2086 # CC_O0_CC is the compiler's words
exec ${CC_O0_CC:-cc} "$@"
