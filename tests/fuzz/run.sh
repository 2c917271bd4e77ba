#!/bin/sh
# run.sh: runs libFuzzer targets one after another, as `make fuzz` does:
#
#   run.sh SRCDIR BUILDDIR SECONDS TARGET...
#
# Each TARGET (frontend, cubin, hsaco, arch_table, options, replay) is the program
# BUILDDIR/tests/fuzz/fuzz_TARGET.  Its corpus starts afresh each time in
# BUILDDIR/fuzz-work/TARGET/corpus from the committed seeds, the files of
# SRCDIR/tests/fuzz/seeds/TARGET (not its subdirectories; for frontend,
# the golden cases' .silk files too; for hsaco, the code objects of
# SRCDIR/tests/data/amdgpu), with SRCDIR/tests/fuzz/TARGET.dict
# as its dictionary when there is one; it runs SECONDS seconds on one core.
# libFuzzer's output goes to BUILDDIR/fuzz-work/TARGET/fuzz.log and what it
# finds (crash-*, leak-*, timeout-*, oom-*) beside it.
#
# Per target one line: libFuzzer's last "Done N runs in S second(s)" and
# "nothing found", or FOUND with the input that failed and the end of the
# log.  Exits 1 when any target found something (or would not run), else 0.
set -u
if [ $# -lt 4 ]; then
    echo "usage: run.sh SRCDIR BUILDDIR SECONDS TARGET..." >&2
    exit 2
fi
srcdir=$1 builddir=$2 seconds=$3
shift 3

# The longest input worth trying: a source file, a cubin (the seeds are
# 1 to 7 KiB), a table, a command line, a record.
max_len() {
    case $1 in
    frontend) echo 8192 ;;
    cubin) echo 16384 ;;
    hsaco) echo 16384 ;;
    arch_table) echo 4096 ;;
    options) echo 512 ;;
    replay) echo 8192 ;;
    *) echo 4096 ;;
    esac
}

# Copies TARGET's committed seeds into the directory $2.
copy_seeds() {
    if [ "$1" = frontend ]; then
        find "$srcdir/tests/golden" -name '*.silk' -exec cp {} "$2/" \;
    fi
    if [ "$1" = hsaco ]; then
        find "$srcdir/tests/data/amdgpu" -name '*.hsaco' -exec cp {} "$2/" \;
    fi
    if [ -d "$srcdir/tests/fuzz/seeds/$1" ]; then
        find "$srcdir/tests/fuzz/seeds/$1" -maxdepth 1 -type f -exec cp {} "$2/" \;
    fi
}

# The first lines of what went wrong in libFuzzer's log $1: a sanitizer's
# or libFuzzer's report, or what a target printed before it aborted
# ("exit status ..."); the end of the log when none is found.
report_start() {
    first=$(grep -n -m 1 -E '^==[0-9]+== ?ERROR|runtime error:|^exit status|^--format' "$1" |
        cut -d: -f1)
    if [ -n "$first" ]; then
        sed -n "${first},$((first + 15))p" "$1"
    else
        tail -n 16 "$1"
    fi
}

# Runs one target; 0 when it ran its time and found nothing.
fuzz_one() {
    target=$1
    program=$builddir/tests/fuzz/fuzz_$target
    work=$builddir/fuzz-work/$target
    if [ ! -x "$program" ]; then
        echo "fuzz $target: FAILED: no $program (./configure --enable-fuzz CC=clang)"
        return 1
    fi
    rm -rf "$work"
    mkdir -p "$work/corpus" || return 1
    copy_seeds "$target" "$work/corpus"
    dict=$srcdir/tests/fuzz/$target.dict
    set -- -max_total_time="$seconds" -timeout=10 -max_len="$(max_len "$target")" \
        -artifact_prefix="$work/" -print_final_stats=1
    if [ -f "$dict" ]; then
        set -- "$@" -dict="$dict"
    fi
    "$program" "$@" "$work/corpus" >"$work/fuzz.log" 2>&1
    rc=$?
    done_line=$(grep '^Done [0-9]* runs' "$work/fuzz.log" | tail -n 1)
    found=$(find "$work" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' \
        -o -name 'timeout-*' -o -name 'oom-*' \) | head -n 1)
    if [ $rc -eq 0 ] && [ -n "$done_line" ] && [ -z "$found" ]; then
        echo "fuzz $target: $done_line: nothing found"
        return 0
    fi
    runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/fuzz.log" | tail -n 1)
    echo "fuzz $target: FOUND (libFuzzer exit $rc${runs:+, ${runs#stat::}}): ${found:-see the log}"
    echo "  log: $work/fuzz.log; the report in it:"
    report_start "$work/fuzz.log" | sed 's/^/  | /'
    return 1
}

status=0
for target in "$@"; do
    fuzz_one "$target" || status=1
done
exit $status
