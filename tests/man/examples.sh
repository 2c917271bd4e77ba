#!/bin/sh
# shellcheck disable=SC2317 # page_file and page_run are called through eval
# examples.sh: run every command of the EXAMPLES section of man/silkc.1 and
# man/silk-occ.1 and check each exits as the page says, so a page cannot
# drift from the programs again (as jq's tests run its manual's examples).
#
# The page is the test's input: in each .EX block, a line `$ command`
# (its bold continuation lines included) is a command, and the plain lines
# after it are its output.  `$ cat FILE` writes FILE with the lines shown,
# so the inputs a page shows are the inputs run; `$ echo $?` gives the
# status of the command before it.  A command with no `echo $?` must exit
# 0, unless its output shows a failure (an `error:` line, a JSON error,
# "cannot access"), when it must exit non-zero.  Outputs are not compared:
# pasted figures (ptxas's register counts) differ between toolkits.
#
# Commands run with NO_COLOR=1 in a fresh temporary directory holding a
# copy of examples/ and its .silk files, the programs first on PATH.
# kernels.silk, the page's stand-in for "your program", is
# examples/saxpy.silk.  Skipped cases: `gh` (needs a repository and the
# network), a program that is not installed (python3), and --emit=cubin
# when silkc finds no ptxas (its exit status 3).  Makefile fragments
# (blocks without `$ `) are not run.  Run by `make check` with SILK_SRCDIR
# and SILK_BUILDDIR set; exits 77 if every case was skipped.
set -u
srcdir=${SILK_SRCDIR:-.}
builddir=${SILK_BUILDDIR:-.}

work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT INT TERM
PATH="$builddir/src:$PATH"
NO_COLOR=1
export PATH NO_COLOR

# The EXAMPLES section of the page $1 as calls of page_file and page_run,
# each with its input in a here-document.
extract() {
    awk -v page="$1" '
    function plain(s) {
        gsub(/\\f[BIRP]/, "", s); gsub(/\\-/, "-", s); gsub(/\\~/, " ", s)
        gsub(/\\&/, "", s); gsub(/\\\(lq|\\\(rq/, "\"", s); gsub(/\\e/, "\\", s)
        return s
    }
    function flush(    rest, n, first) {
        if (cmd == "") return
        if (cmd ~ /^cat [^<>|]+$/) {
            item[++items] = "page_file \"" substr(cmd, 5) "\" <<'\''SILK_PAGE_EOF'\''\n" out "SILK_PAGE_EOF"
        } else if (cmd ~ /^echo \$\?/) {
            first = out; sub(/\n.*/, "", first); rest = out; sub(/^[^\n]*\n/, "", rest)
            if (last) expect[last] = first
            if (cmd ~ /^echo \$\?; /) { cmd = substr(cmd, 10); out = rest; flush_run() }
        } else {
            flush_run()
        }
        cmd = ""; out = ""
    }
    function flush_run() {
        last = ++items
        expect[last] = out ~ /error:|"kind":"error"|cannot access/ ? "nonzero" : "0"
        item[last] = cmd
        where[last] = cmd_line
    }
    /^\.SH/ { in_examples = ($0 ~ /^\.SH EXAMPLES/) }
    !in_examples { next }
    /^\.EX/ { in_block = 1; cmd = ""; out = ""; next }
    /^\.EE/ { flush(); in_block = 0; next }
    !in_block { next }
    /^\$ / { flush(); cmd = plain(substr($0, 3)); cmd_line = NR; continues = 1; next }
    continues && /^[ \t]*\\fB/ { cmd = cmd "\n" plain($0); next }
    { continues = 0; out = out plain($0) "\n" }
    END {
        for (i = 1; i <= items; i++) {
            if (i in expect)
                printf "page_run %s %s:%d <<'\''SILK_PAGE_EOF'\''\n%s\nSILK_PAGE_EOF\n", expect[i], page, where[i], item[i]
            else
                print item[i]
        }
    }' "$srcdir/$1"
}

# page_file NAME: write NAME, under the work directory, from standard input.
page_file() {
    mkdir -p "$work/$(dirname "$1")" && cat > "$work/$1"
}

# page_run EXPECT PAGE:LINE: run the command on standard input in the work
# directory; EXPECT is its exit status, or "nonzero".
page_run() {
    expect=$1 where=$2 command=$(cat)
    program=$(printf '%s\n' "$command" | sed -n '1{s/^[A-Z_]*=[^ ]* //;s/ .*//;p;}')
    case $program in
    gh) echo "SKIP: $where: gh needs a repository and the network"; skipped=$((skipped + 1)); return ;;
    esac
    case $command in
    *python3*) command -v python3 >/dev/null 2>&1 ||
        { echo "SKIP: $where: python3 not found"; skipped=$((skipped + 1)); return; } ;;
    esac
    status=0
    (cd "$work" && sh -c "$command") > "$work/.output" 2>&1 || status=$?
    case $command in
    *--emit=cubin*) if [ "$status" -eq 3 ] && grep -q 'needs ptxas' "$work/.output"; then
        echo "SKIP: $where: no ptxas"; skipped=$((skipped + 1)); return
    fi ;;
    esac
    case $expect in
    nonzero) [ "$status" -ne 0 ] ;;
    *) [ "$status" -eq "$expect" ] ;;
    esac && { passed=$((passed + 1)); return; }
    echo "FAIL: $where: exit status $status, the page says $expect:"
    printf '    $ %s\n' "$command"
    sed 's/^/    /' "$work/.output"
    failed=$((failed + 1))
}

cp -R "$srcdir/examples" "$work/examples" && cp "$srcdir"/examples/*.silk "$work/" &&
    cp "$srcdir/examples/saxpy.silk" "$work/kernels.silk" || exit 99

passed=0 failed=0 skipped=0
for page in man/silkc.1 man/silk-occ.1; do
    cases=$(extract "$page") || exit 99
    eval "$cases"
done
echo "examples: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ] || exit 1
[ $passed -gt 0 ] || exit 77
exit 0
