#!/bin/sh
# warnings.sh: every man page typesets without a warning from groff
# (-ww: all of them): a character troff cannot set, a stray control byte
# where a \f font escape was meant, an unknown request.  Skipped (exit 77)
# without groff.  Run by make check, which sets SILK_SRCDIR.
set -u
: "${SILK_SRCDIR:?}"
command -v groff >/dev/null || { echo "SKIP: warnings.sh: no groff"; exit 77; }
status=0
for page in "$SILK_SRCDIR"/man/*.[1-9]; do
    out=$(groff -man -ww -z "$page" 2>&1)
    if [ -n "$out" ]; then
        echo "FAIL: $page:"
        echo "$out" | head -5
        status=1
    fi
done
[ $status = 0 ] && echo "PASS: warnings.sh: every page typesets cleanly"
exit $status
