#!/bin/sh
# cc_cache.sh: the C compiler for the CPU backend's tests, with a cache in
# front of it, as ccache is (tests/cpu/differential.sh, exec_cli.sh).
#
#   CC_CACHE_DIR=DIR CC_CACHE_CC="$CC" CC="sh .../cc_cache.sh" silkc exec ...
#
# silkc exec compiles the C of the kernel it runs; the tests run the same
# kernel many times (shapes, derivations, -O0 twice), so most of those
# compilations were of C that had been compiled before: 215 of 384 in
# differential.sh, 46 of 64 in exec_cli.sh.  The cache key is the compiler
# and every argument but the output's path, each file among them by its
# bytes, not its name; a hit copies what the same compiler made from the
# same files with the same flags, a miss
# compiles and keeps the result (written beside and renamed, so parallel
# runs never read half a file).  The cache lives in the test's own
# temporary directory: nothing carries over from one run to the next.
set -u
: "${CC_CACHE_DIR:?}" "${CC_CACHE_CC:?}"
# The key: every argument but the output's path, each file among them by
# its bytes (a C file or a library, wherever its temporary directory).
out= prev= key=$CC_CACHE_CC
for a; do
    if [ "$prev" = -o ]; then
        out=$a
    elif [ "$a" != -o ]; then
        if [ -f "$a" ]; then key="$key
file $(sha256sum <"$a")"; else key="$key
arg $a"; fi
    fi
    prev=$a
done
# shellcheck disable=SC2086 # CC_CACHE_CC is the compiler's words
[ -n "$out" ] || exec $CC_CACHE_CC "$@"
key=$(printf '%s\n' "$key" | sha256sum | cut -c1-40)
if [ -f "$CC_CACHE_DIR/$key" ]; then
    cp "$CC_CACHE_DIR/$key" "$out"
    exit
fi
# shellcheck disable=SC2086
$CC_CACHE_CC "$@" || exit
cp "$out" "$CC_CACHE_DIR/$key.$$" && mv "$CC_CACHE_DIR/$key.$$" "$CC_CACHE_DIR/$key"
