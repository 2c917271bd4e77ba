#!/bin/sh
# man_example.sh: the C program under EXAMPLES in man/silkrt.3, compiled
# against the header and the library as built, linked as the page says,
# and run as the page shows: its output must be the page's.  Run by
# `make check` from the build directory (SILK_SRCDIR and SILK_BUILDDIR
# override; SAN_CFLAGS, the sanitizer flags the library was built with,
# are passed to the compiler); exits 77 (skipped) without a C compiler.
set -u
srcdir=${SILK_SRCDIR:-.}
builddir=${SILK_BUILDDIR:-.}
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || { echo "SKIP: no C compiler ($cc)"; exit 77; }
page=$srcdir/man/silkrt.3
lib=$builddir/std/runtime/libsilkrt.a
[ -f "$lib" ] || { echo "FAIL: no $lib (build first)"; exit 1; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

# The page's text of the n-th .EX block, unescaped.
block() {
    awk -v want="$1" '/^\.EX$/ { n++; inside = n == want; next }
        /^\.EE$/ { inside = 0; next }
        inside { gsub(/\\-/, "-"); gsub(/\\\\/, "\\"); print }' "$page"
}
block 1 > "$work/example.c"
block 2 | sed -n '/^\$ SILK_BACKEND=cpu \.\/example$/,$p' | sed 1d > "$work/want"
[ -s "$work/example.c" ] && [ -s "$work/want" ] || { echo "FAIL: no example in $page"; exit 1; }
block 2 | grep -q '^\$ cc example.c -lsilkrt -lpthread -ldl -lm -o example$' ||
    { echo "FAIL: the page's link line changed; update this test"; exit 1; }

# shellcheck disable=SC2086 # the flags are words
if ! "$cc" ${SAN_CFLAGS:-} -std=c11 -Wall -Wextra -Werror -I"$srcdir/std/runtime" "$work/example.c" \
        "$lib" -lpthread -ldl -lm -o "$work/example" 2> "$work/cc.err"; then
    echo "FAIL: the example does not build:"; cat "$work/cc.err"; exit 1
fi
SILK_BACKEND=cpu "$work/example" > "$work/got" 2> "$work/err"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: the example exits $rc: $(cat "$work/err")"; exit 1; }
if ! cmp -s "$work/got" "$work/want"; then
    echo "FAIL: the example's output is not the page's:"
    diff "$work/want" "$work/got"
    exit 1
fi
echo "PASS: man/silkrt.3's example builds and prints what the page shows"
