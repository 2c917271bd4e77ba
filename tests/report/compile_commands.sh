#!/bin/sh
# compile_commands.sh: `silk-occ report --compile-commands` on a small
# project of the test's own (tests/report/inputs/project: four units,
# headers in include/ and shared/, one unit in a directory with a space,
# one in sub/ finding its headers by relative -I, one that does not
# compile).  The test writes the database itself, in both forms
# (`arguments` and a `command` string with quotes), and checks:
#   - each unit's registers and static shared memory against ptxas -v run
#     here on nvcc -ptx's output with the same flags in the same
#     directory, and its CTAs per SM against silk-occ calc on those
#     figures at the report's selected size;
#   - -DTILE per unit (tile_a 512 B, tile_b 2 KiB, tile_c 128 B);
#   - the dedupe: scale<float>, alike in a.cu and b.cu, is one entry per
#     target naming both; stage<float>, whose STAGE c.cu sets, two;
#   - the failure summary (nvcc's first error line) and exit 1, with
#     the others reported in full on stdout;
#   - --jobs 1 and --jobs 2 giving the same stdout;
#   - no progress when stderr is not a terminal, a progress line under
#     script(1) when it exists, none there with --quiet;
#   - a bad database: missing, not JSON (line:column), not an array, an
#     entry without "file", a directory that does not exist, no CUDA
#     unit, and files given beside it: exact text, exit 2.
# Without nvcc or ptxas the cases that need them are skipped (exit 77).
# Run by make check, which sets SILK_OCC, SILK_SRCDIR and CHECK_SCHEMA.
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}" "${CHECK_SCHEMA:?}"
cd "$SILK_SRCDIR" || exit 99
# shellcheck source=tests/report/lib.sh
. tests/report/lib.sh
cp -R tests/report/inputs/project "$work/project" || exit 99
chmod -R u+w "$work/project" # distcheck's sources are read-only
cd "$work" || exit 99
root=$(pwd -P)
p=$root/project
C="$P --compile-commands:"

# ---- a bad database: no tool needed --------------------------------------
expect 2 "$C missing.json: cannot read: No such file or directory" \
    --compile-commands missing.json --arch sm_80
printf '[\n  {"directory": "/", "file": "a.cu",\n   "arguments": ["nvcc" "a.cu"]}\n]\n' >bad.json
expect 2 "$C bad.json:3:25: not valid JSON" --compile-commands bad.json --arch sm_80
printf '{"directory": "/"}\n' >object.json
expect 2 "$C object.json: not a compile database (a JSON array of entries)" \
    --compile-commands object.json --arch sm_80
printf '[{"directory": "%s", "file": "a.cu", "command": "nvcc -c a.cu"},\n {"directory": "%s", "command": "nvcc -c b.cu"}]\n' \
    "$p" "$p" >nofile.json
expect 2 "$C nofile.json: entry 1: no \"file\" (a string)" --compile-commands nofile.json --arch sm_80
printf '[{"directory": "%s/gone", "file": "a.cu", "command": "nvcc -c a.cu"}]\n' "$p" >nodir.json
expect 2 "$C nodir.json: entry 0: directory $p/gone: No such file or directory" \
    --compile-commands nodir.json --arch sm_80
printf '[{"directory": "%s", "file": "a.cu", "command": "nvcc -c '"'"'a.cu"}]\n' "$p" >quote.json
expect 2 "$C quote.json: entry 0: \"command\": unterminated ' quote in flags" \
    --compile-commands quote.json --arch sm_80
printf '[{"directory": "%s", "file": "host.cpp", "arguments": ["g++", "-c", "host.cpp"]}]\n' "$p" >host.json
expect 2 "$C host.json: no CUDA translation unit (an entry whose file is .cu, or whose command has -x cu)" \
    --compile-commands host.json --arch sm_80
expect 2 "$P --compile-commands: give it or FILE operands, not both (the database names the files)" \
    --compile-commands host.json project/a.cu --arch sm_80

nvcc=${SILK_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ptxas=${SILK_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
if [ ! -x "$nvcc" ] || [ ! -x "$ptxas" ]; then
    echo "SKIP: compile_commands.sh: no nvcc or no ptxas ($nvcc, $ptxas): the project cases did not run"
    [ $failures = 0 ] && exit 77
    exit 1
fi

# ---- the project ------------------------------------------------------------
# Each unit's flags, as the build would give them (and as ptxas -v is
# checked with below): DIR|FILE|FLAGS.
units="$p|a.cu|-Iinclude -isystem shared -DTILE=128 -std=c++17
$p|$p/with space/b.cu|-I include -Ishared -DTILE=256 --expt-relaxed-constexpr
$p/sub|c.cu|-I../include -I ../shared -DTILE=32 -DSTAGE=512"
cat >compile_commands.json <<EOF
[
  {"directory": "$p", "file": "a.cu",
   "arguments": ["$nvcc", "-Iinclude", "-isystem", "shared", "-DTILE=128", "-std=c++17",
                 "-o", "a.o", "-c", "a.cu", "-MD", "-MF", "a.d"]},
  {"directory": "$p", "file": "$p/with space/b.cu",
   "command": "$nvcc -I include -I'shared' \"-DTILE=256\" --expt-relaxed-constexpr -c '$p/with space/b.cu' -o 'with space/b.o'"},
  {"directory": "$p/sub", "file": "c.cu",
   "command": "nvcc -I../include -I ../shared -DTILE=32 -DSTAGE=512 -x cu -c c.cu -o c.o"},
  {"directory": "$p", "file": "bad.cu", "arguments": ["nvcc", "-c", "bad.cu", "-o", "bad.o"]},
  {"directory": "$p", "file": "host.cpp", "arguments": ["g++", "-c", "host.cpp"]}
]
EOF
summary="$P 1 of 4 CUDA units failed (the others are reported in full):
  project/bad.cu(4): error: identifier \"not_declared_anywhere\" is undefined"
expect 1 "$summary" --compile-commands compile_commands.json --arch sm_80,sm_90 --format json --jobs 2
cp out report.json
"$CHECK_SCHEMA" report.json || fail "the project's JSON does not match the schema"
expect 1 "$summary" --compile-commands compile_commands.json --arch sm_80,sm_90 --format json --jobs 1
cmp -s out report.json || fail "--jobs 1 and --jobs 2 give different reports"

# One line per entry: SYMBOL ARCH REGS SMEM THREADS CTAS FILE|UNITS.
awk -F'\t' '
    /^\t\t\t"kernel":/ { regs = ""; smem = ""; sel = 0; units = "" }
    /^\t\t\t"symbol":/ { sym = $NF; gsub(/[",]/, "", sym) }
    /^\t\t\t"file":/ { file = $NF; gsub(/[",]/, "", file) }
    /^\t\t\t"units":/ { units = $NF; gsub(/[]["]/, "", units); sub(/,$/, "", units)
        if (units == "null") units = "" }
    /^\t\t\t"arch":/ { arch = $NF; gsub(/[",]/, "", arch) }
    /^\t\t\t\t"regs_per_thread":/ { regs = $NF; sub(/,/, "", regs) }
    /^\t\t\t\t"static_smem":/ { smem = $NF; sub(/,/, "", smem) }
    /^\t\t\t"selected":/ { sel = 1 }
    sel == 1 && /^\t\t\t\t"threads":/ { threads = $NF; sub(/,/, "", threads) }
    sel == 1 && /^\t\t\t\t"active_blocks_per_sm":/ {
        ctas = $NF; sub(/,/, "", ctas); sel = 2
        print sym, arch, regs, smem, threads, ctas, (units != "" ? units : file)
    }' report.json >entries
[ "$(wc -l <entries)" = 12 ] || fail "want 12 entries (4 kernels x 2 targets, stage<float> twice), got: $(cat entries)"

# ptxas -v on nvcc -ptx's PTX, unit by unit, with the unit's own flags.
n=0
echo "$units" | while IFS='|' read -r dir file flags; do
    n=$((n + 1))
    for arch in sm_80 sm_90; do
        # shellcheck disable=SC2086 # the flags are the test's own words
        (cd "$dir" && "$nvcc" -ptx -arch="$arch" $flags -o "$root/u$n.ptx" "$file") ||
            { echo "FAIL: nvcc -ptx $file"; continue; }
        "$ptxas" -v --gpu-name "$arch" -o /dev/null "$root/u$n.ptx" 2>"$root/v$n" ||
            { echo "FAIL: ptxas -v $file"; continue; }
        awk -v arch="$arch" -v unit="$file" '
            /Compiling entry function/ { split($0, q, "\047"); s = q[2]; smem = 0 }
            /bytes smem/ { for (i = 2; i <= NF; i++) if ($i == "smem" || $i == "smem,") smem = $(i - 2) }
            /Used/ { for (i = 1; i <= NF; i++) if ($i == "Used") print s, arch, $(i + 1), smem, unit; smem = 0 }' \
            "$root/v$n"
    done
done >oracle
grep -q FAIL oracle && fail "the oracle's compiles: $(grep FAIL oracle)"
# 7 kernels of the units on 2 targets (the report's 12 entries, with
# scale<float> of a.cu and b.cu joined).
[ "$(wc -l <oracle)" = 14 ] || fail "ptxas -v found $(wc -l <oracle) kernels x targets, want 14: $(cat oracle)"
while read -r sym arch regs smem unit; do
    case $unit in */*) name=project/with\ space/b.cu ;; c.cu) name=project/sub/c.cu ;; *) name=project/$unit ;; esac
    got=$(awk -v s="$sym" -v a="$arch" -v u="$name" '$1 == s && $2 == a && index($0, u)' entries)
    [ -n "$got" ] || { fail "$name: no entry of $sym on $arch"; continue; }
    set -- $got
    [ "$3 $4" = "$regs $smem" ] ||
        fail "$name: $sym on $arch: registers, smem $3 $4; ptxas -v: $regs $smem"
    "$SILK_OCC" calc --arch "$arch" --threads "$5" --regs "$regs" --smem "$smem" --format json >calc
    want=$(awk '$1 == "\"active_blocks_per_sm\":" { v = $2; sub(/,$/, "", v); print v; exit }' calc)
    [ "$6" = "$want" ] || fail "$name: $sym on $arch: $6 CTAs/SM at $5 threads; calc: $want"
done <oracle

# -DTILE per unit, and the dedupe, as figures.
check_entries() {
    got=$(awk -v s="$1" -v a="$2" '$1 == s && $2 == a {
        u = $7; for (i = 8; i <= NF; i++) u = u " " $i; print $4, u }' entries | sort)
    [ "$got" = "$3" ] || fail "$1 on $2: smem and units
  got:  $got
  want: $3"
}
for arch in sm_80 sm_90; do
    check_entries _Z6tile_aPfPKf $arch "512 project/a.cu"
    check_entries _Z6tile_bPdPKd $arch "2048 project/with space/b.cu"
    check_entries _Z6tile_cPi $arch "128 project/sub/c.cu"
    check_entries _Z5scaleIfEvPT_S0_i $arch "0 project/a.cu, project/with space/b.cu"
    check_entries _Z5stageIfEvPT_PKS0_ $arch "2048 project/sub/c.cu
256 project/a.cu"
done

# The text names the units; the other figures' entry is pointed to.
expect 1 "$summary" --compile-commands compile_commands.json --arch sm_80 --kernel 'scale*'
grep -q '^scale<float>(float\*, float, int) (in project/a.cu, project/with space/b.cu) on sm_80 ' out ||
    fail "text: scale<float> does not name both units: $(head -1 out)"
expect 1 "$summary" --compile-commands compile_commands.json --arch sm_80 --kernel 'stage*'
[ "$(grep -c '^  other units define it with other figures: project/sub/c.cu (reported apart)$' out)" = 1 ] &&
    [ "$(grep -c '^  other units define it with other figures: project/a.cu (reported apart)$' out)" = 1 ] ||
    fail "text: stage<float>'s two entries do not point to each other"

# $SILK_NVCC=none says there is none, whatever the database names.
SILK_NVCC=none expect 3 "$P CUDA input needs nvcc, and none was found (put the CUDA toolkit's bin on PATH, or set SILK_NVCC)" \
    --compile-commands compile_commands.json --arch sm_80

# The join holds for any run of several files: two .cu on the command line.
"$SILK_OCC" report project/a.cu "project/with space/b.cu" --arch sm_80 --kernel 'scale*' \
    --nvcc-flags "-Iproject/include -Iproject/shared -DTILE=64" --format json >files.json 2>err ||
    fail "a.cu and b.cu on the command line: $(cat err)"
[ "$(grep -c '"kernel":' files.json)" = 1 ] &&
    grep -q '"units":.*\["project/a.cu", "project/with space/b.cu"\]' files.json ||
    fail "a.cu and b.cu on the command line: scale<float> not one entry naming both: $(grep -e '"file"' -e '"units"' files.json)"

# merge reads "units" back: the joined entry stays one, naming both.
"$SILK_OCC" merge files.json --format json >merged.json 2>err || fail "merge of files.json: $(cat err)"
[ "$(jq -c '[.reports[] | {file, units}]' merged.json)" = '[{"file":"project/a.cu","units":["project/a.cu","project/with space/b.cu"]}]' ] ||
    fail "merge of a joined entry: $(jq -c '[.reports[] | {file, units}]' merged.json)"

# Given no --arch, the targets are the build's: its units' -gencode and
# -arch (sm_90a is reported as sm_90).
cat >archs.json <<EOF
[
  {"directory": "$p", "file": "a.cu",
   "arguments": ["nvcc", "-Iinclude", "-isystem", "shared", "-DTILE=128", "-c", "a.cu",
                 "-gencode", "arch=compute_80,code=[sm_80,compute_80]"]},
  {"directory": "$p/sub", "file": "c.cu",
   "command": "nvcc -I../include -I ../shared -DTILE=32 -arch=sm_90a -c c.cu"}
]
EOF
"$SILK_OCC" report --compile-commands archs.json --format json >archs.out 2>err || fail "the build's targets: $(cat err)"
got=$(jq -r '[.reports[].arch] | unique | join(",")' archs.out)
[ "$got" = "sm_80,sm_90" ] || fail "the build's targets: $got, not sm_80,sm_90"

# Progress: a line on a terminal only, and not with --quiet.
if command -v script >/dev/null 2>&1; then
    script -qec "\"$SILK_OCC\" report --compile-commands compile_commands.json --arch sm_80 --jobs 1 >/dev/null" \
        /dev/null </dev/null >tty.out 2>&1
    grep -q '\[4/4\] sm_80 project/' tty.out || fail "no progress line on a terminal: $(cat -v tty.out)"
    script -qec "\"$SILK_OCC\" report --compile-commands compile_commands.json --arch sm_80 --quiet >/dev/null" \
        /dev/null </dev/null >tty.out 2>&1
    grep -q '\[[0-9]*/4\]' tty.out && fail "--quiet: a progress line: $(cat -v tty.out)"
else
    echo "note: no script(1): the progress line on a terminal was not checked"
fi

[ $failures = 0 ] || { echo "$failures failures"; exit 1; }
echo "PASS: compile_commands.sh"
