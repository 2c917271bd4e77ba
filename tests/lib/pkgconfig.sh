#!/bin/sh
# pkgconfig.sh: libsilk-occ as a user gets it (issue 26, item 1).  Installs
# the library, its header and silk-occ.pc from the build tree into a
# staging root (make install DESTDIR=...), then, with only the flags
# pkg-config gives for that copy:
#   - builds the example program of man/silk-occ.3 (the page's own text,
#     so that the documented example is the tested one), linked shared and
#     static, and compares its output with the page's;
#   - builds tests/lib/lib_oracle.c the same two ways and runs it: the
#     installed library against cuda_occupancy.h on random configurations,
#     by the single call and by plans.
# Run by `make check` from the build directory (SILK_SRCDIR, SILK_BUILDDIR
# and SAN_CFLAGS as for the other tests; SILK_CUDA_OCC_CPPFLAGS names the
# header's folder).  Exits 77 without a C compiler or pkg-config, and after
# the example when cuda_occupancy.h is absent (the oracle part skipped).
set -u
srcdir=${SILK_SRCDIR:-.}
builddir=${SILK_BUILDDIR:-.}
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || { echo "SKIP: no C compiler ($cc)"; exit 77; }
command -v pkg-config >/dev/null 2>&1 || { echo "SKIP: pkg-config not found"; exit 77; }
page=$srcdir/man/silk-occ.3
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
root=$work/root

# Only the library's parts: the programs are not what this tests.  The
# sub-make must not join make check's job server.
if ! (cd "$builddir" && MAKEFLAGS= MFLAGS= ${MAKE:-make} DESTDIR="$root" install-libLTLIBRARIES \
        install-silkoccincludeHEADERS install-pkgconfigDATA) > "$work/install.log" 2>&1; then
    echo "FAIL: make install DESTDIR=... failed:"; cat "$work/install.log"; exit 1
fi
pc=$(find "$root" -name silk-occ.pc)
[ -n "$pc" ] || { echo "FAIL: make install put no silk-occ.pc under $root"; exit 1; }
libdir=$(dirname "$(dirname "$pc")")
for f in "$libdir/libsilk-occ.so" "$libdir/libsilk-occ.a"; do
    [ -f "$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
[ -n "$(find "$root" -path '*/include/silk-occ/silk-occ.h')" ] ||
    { echo "FAIL: include/silk-occ/silk-occ.h not installed"; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$root
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
cflags=$(pkg-config --cflags silk-occ) libs=$(pkg-config --libs silk-occ) &&
    static_libs=$(pkg-config --libs-only-l --static silk-occ | sed 's/-lsilk-occ//') ||
    { echo "FAIL: pkg-config does not read $pc"; exit 1; }

# The page's text of the n-th .EX block, unescaped.
block() {
    awk -v want="$1" '/^\.EX$/ { n++; inside = n == want; next }
        /^\.EE$/ { inside = 0; next }
        inside { gsub(/\\-/, "-"); gsub(/\\\\/, "\\"); print }' "$page"
}
block 1 > "$work/example.c"
block 2 | sed -n '/^\$ \.\/example$/,$p' | sed 1d > "$work/want"
[ -s "$work/example.c" ] && [ -s "$work/want" ] || { echo "FAIL: no example in $page"; exit 1; }
block 2 | grep -q '^\$ cc example.c \$(pkg-config --cflags --libs silk-occ) -o example$' ||
    { echo "FAIL: the page's build line changed; update this test"; exit 1; }

# build NAME SOURCE EXTRA...: compiles SOURCE twice, NAME.shared with the
# page's flags and NAME.static with the archive.
build() {
    name=$1 src=$2
    shift 2
    # shellcheck disable=SC2086 # the flags are words
    "$cc" ${SAN_CFLAGS:-} -std=c11 -Wall -Wextra -Werror "$@" $cflags "$src" $libs \
        ${EXTRA_LIBS:-} -o "$work/$name.shared" 2> "$work/cc.err" &&
    "$cc" ${SAN_CFLAGS:-} -std=c11 -Wall -Wextra -Werror "$@" $cflags "$src" \
        "$libdir/libsilk-occ.a" $static_libs -o "$work/$name.static" 2>> "$work/cc.err" ||
        { echo "FAIL: $src does not build against the installed library:"; cat "$work/cc.err"; exit 1; }
}

# run NAME ARGS...: both builds, the shared one on the installed .so.
run() {
    name=$1
    shift
    LD_LIBRARY_PATH=$libdir "$work/$name.shared" "$@" > "$work/$name.shared.out" ||
        { echo "FAIL: $name (shared) exits $?"; cat "$work/$name.shared.out"; exit 1; }
    "$work/$name.static" "$@" > "$work/$name.static.out" ||
        { echo "FAIL: $name (static) exits $?"; cat "$work/$name.static.out"; exit 1; }
    LD_LIBRARY_PATH=$libdir ldd "$work/$name.shared" 2>/dev/null | grep -q "$libdir/libsilk-occ.so" ||
        { echo "FAIL: $name.shared does not load the installed libsilk-occ.so"; exit 1; }
}

build example "$work/example.c"
run example
for how in shared static; do
    if ! cmp -s "$work/example.$how.out" "$work/want"; then
        echo "FAIL: the example's output ($how) is not the page's:"
        diff "$work/want" "$work/example.$how.out"
        exit 1
    fi
done
echo "PASS: the example of silk-occ(3) built with pkg-config, shared and static, prints the page's output"

grep -q '^#define HAVE_CUDA_OCCUPANCY_H 1' "$builddir/config.h" || {
    echo "SKIP: the oracle part: cuda_occupancy.h not found (configure --with-cuda=DIR)"
    exit 77
}
# The engine's own tables, for telling the header the device (lib_oracle.c
# says why); the .so exports none of their names, so they cannot clash.
# shellcheck disable=SC2086
EXTRA_LIBS="$builddir/occupancy/.libs/libsilkocc.a $builddir/common/libsilkcommon.a $static_libs" \
    build lib_oracle "$srcdir/tests/lib/lib_oracle.c" -I"$builddir" -I"$srcdir/tests/oracle" \
    -I"$srcdir/occupancy" ${SILK_CUDA_OCC_CPPFLAGS:-}
run lib_oracle 20000
cat "$work/lib_oracle.shared.out"
cmp -s "$work/lib_oracle.shared.out" "$work/lib_oracle.static.out" ||
    { echo "FAIL: the shared and static builds disagree"; cat "$work/lib_oracle.static.out"; exit 1; }
echo "PASS: the installed library agrees with cuda_occupancy.h, shared and static"
