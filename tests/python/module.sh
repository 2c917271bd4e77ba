#!/bin/sh
# module.sh: the silk_occ Python module (python/, issue 26, item 4) as a
# user gets it: a fresh virtual environment, `pip install` of a copy of
# python/ built from this tree's engine sources, then module_checks.py in
# that environment: occupancy() equal to `silk-occ calc --format json` on
# random configurations of both vendors, batch() equal to occupancy(),
# targets(), calc's errors, prune() on a space of 1,944 configurations with
# every reason (and the same verdicts as silk-occ prune where the build has
# it), the Kernel Tuner and Triton adapters (the real packages where the
# system has them, plain objects of the same shape otherwise), and the
# README's two examples in "Tuning from Python", their output as printed.
#
# Exits 77, saying what is missing, without python3's venv or its C
# headers, or when pip cannot install (offline: the isolated build fetches
# setuptools; SILK_PIP_NO_ISOLATION=1 builds with the environment's own,
# which needs setuptools 70.1 or the wheel package).
# Run by make check, which sets SILK_OCC and SILK_SRCDIR.
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}"
command -v python3 >/dev/null 2>&1 || { echo "module.sh: no python3; skipped"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/silk-python.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT HUP INT TERM
# The system's packages stay visible, so that a Kernel Tuner or Triton
# installed there is the real one the adapters are tried with.
if ! python3 -m venv --system-site-packages "$work/venv" >"$work/venv.log" 2>&1; then
    echo "module.sh: python3 -m venv is unavailable (Debian: python3-venv); skipped"
    sed 's/^/  /' "$work/venv.log" | tail -3
    exit 77
fi
# The extension is C: without Python's headers pip can only fail.
if ! "$work/venv/bin/python" -c 'import os, sysconfig, sys; sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
    echo "module.sh: python3's C headers (Python.h; Debian: python3-dev) are missing; skipped"
    exit 77
fi
# A copy, so that the build writes nothing into the source tree (which
# make distcheck makes read-only); SILK_OCC_SOURCE says where the engine is.
cp -R "$SILK_SRCDIR/python" "$work/python" && chmod -R u+w "$work/python" || exit 1
rm -rf "$work/python/build" "$work/python"/*.egg-info "$work/python/silk_occ"/*.so
isolation=
[ "${SILK_PIP_NO_ISOLATION:-0}" = 1 ] && isolation=--no-build-isolation
if ! SILK_OCC_SOURCE=$SILK_SRCDIR "$work/venv/bin/pip" install --disable-pip-version-check -q \
        $isolation "$work/python" >"$work/pip.log" 2>&1; then
    if grep -qiE 'network|connection|resolve|index|No matching distribution' "$work/pip.log"; then
        echo "module.sh: pip could not fetch setuptools for the isolated build (offline?); skipped"
        grep -iE 'network|connection|resolve|index|No matching distribution' "$work/pip.log" |
            head -2 | sed 's/^ */  /'
        exit 77
    fi
    echo "module.sh: pip install of python/ failed:" >&2
    cat "$work/pip.log" >&2
    exit 1
fi
cd "$work" && exec "$work/venv/bin/python" "$SILK_SRCDIR/tests/python/module_checks.py"
