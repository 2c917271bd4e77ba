#!/bin/sh
# includes.sh: the layering as a rule (issue 23 item 5).  Each library may
# include its own headers and those of the libraries below it, never one
# above: the engine (occupancy/) knows nothing of the compiler or the
# programs, the report's model (report/) nothing of the compiler, and the
# programs (src/) nothing of a target's folder (compiler/ptx/,
# compiler/amdgpu/, compiler/cpu/, compiler/c/) nor any *_internal.h of
# another folder.  The build enforces the first part too: each library is
# compiled with only its own and its dependencies' -I flags (Makefile.am),
# so an upward include does not compile; this lint also catches what a
# path from the top of the tree ("compiler/ptx/ptxas.h") would get past
# the flags.  Prints each offence, file and line, and the header's home.
# The installed API's header (include/silk-occ/) is the engine's, below
# everything but common.  Run by make check from the source tree (SILK_SRCDIR).
set -u
cd "${SILK_SRCDIR:-.}" || exit 99

# allowed FOLDER: the folders whose headers FOLDER may include.
allowed() {
    case $1 in
    common) echo "common" ;;
    occupancy) echo "occupancy common include" ;;
    std/runtime) echo "std/runtime common" ;;
    compiler*) echo "compiler occupancy common std/runtime" ;;
    report) echo "report occupancy common" ;;
    verify) echo "verify occupancy common" ;;
    src) echo "src compiler occupancy report verify common std/runtime" ;;
    esac
}

# home FILE HEADER: where the build finds HEADER for FILE: its own
# folder first, then the include path of every library (the widest), as
# "FOLDER/HEADER"; empty when it is none of ours (a system header).
home() {
    dir=$(dirname "$1")
    if [ -f "$dir/$2" ]; then echo "$dir/$2"; return; fi
    for d in src compiler occupancy report verify common std/runtime include; do
        if [ -f "$d/$2" ]; then echo "$d/$2"; return; fi
    done
    [ -f "$2" ] && echo "$2"
}

status=0 checked=0
for file in $(find common occupancy std/runtime compiler report verify src -name '*.[ch]' | sort); do
    folder=$(dirname "$file")
    case $folder in compiler/*) top=compiler ;; *) top=$folder ;; esac
    ok=$(allowed "$folder")
    grep -n '^#include "' "$file" | while IFS= read -r line; do
        n=${line%%:*}
        header=$(echo "$line" | sed 's/^[0-9]*:#include "\([^"]*\)".*/\1/')
        case $header in common/emulated_device.h) continue ;; esac # built into common/
        where=$(home "$file" "$header")
        [ -n "$where" ] || continue
        wdir=$(dirname "$where")
        case $wdir in compiler/*) wtop=compiler ;; include/*) wtop=include ;; *) wtop=$wdir ;; esac
        why=""
        case " $ok " in *" $wtop "*) ;; *) why="$top may not include $wtop" ;; esac
        case $top:$wdir in src:compiler/ptx | src:compiler/amdgpu | src:compiler/cpu | src:compiler/c)
            why="src may not include a target's folder ($wdir)" ;;
        esac
        case $where in *_internal.h)
            [ "$wdir" = "$folder" ] || why="${why:+$why; }$where is $wdir's own" ;;
        esac
        if [ -n "$why" ]; then
            echo "FAIL: $file:$n: #include \"$header\" ($where): $why"
            echo x >>"${TMPDIR:-/tmp}/includes.$$"
        fi
    done
    checked=$((checked + 1))
done
if [ -s "${TMPDIR:-/tmp}/includes.$$" ]; then
    status=1
fi
rm -f "${TMPDIR:-/tmp}/includes.$$"
[ $status -eq 0 ] && echo "PASS: $checked files include only their own and lower libraries' headers"
exit $status
