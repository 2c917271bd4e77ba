#!/bin/sh
# calc_schema.sh: `silk-occ calc --format json` against its published
# schema, docs/calc-schema.json (closed, as the report's: a key the writer
# adds and the schema lacks fails here), validated by check_schema over
# runs of both vendors: a bare architecture, a product named by an alias,
# --work with and without an SM count, each sweep, the settings one
# vendor has; a few of their values asserted; and documents the schema
# must refuse (a key it lacks, a wrong type, a required key missing, a
# wrong schema id, a wrong sweep variable), each refused with the key
# named.  Run by make check, which sets SILK_OCC, SILK_SRCDIR and
# CHECK_SCHEMA; needs no toolkit.
set -u
: "${SILK_OCC:?}" "${SILK_SRCDIR:?}" "${CHECK_SCHEMA:?}"
cd "$SILK_SRCDIR" || exit 99
# shellcheck source=tests/report/lib.sh
. tests/report/lib.sh
schema=docs/calc-schema.json

n=0
while IFS= read -r args; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    "$SILK_OCC" calc $args --format json >"$work/c$n.json" 2>"$work/err" ||
        { fail "calc $args: exit $?: $(cat "$work/err")"; continue; }
    out=$("$CHECK_SCHEMA" --schema "$schema" "$work/c$n.json") ||
        fail "calc $args: the JSON does not match $schema: $out"
done <<'RUNS'
--arch sm_90 --threads 256 --regs 32
--arch 8.6 --threads 96 --regs 40 --smem 12K --dyn-smem 2K --barriers 2 --no-optin --carveout 50
--gpu a100 --threads 256 --regs 64 --work 1000000
--arch sm_120 --threads 128 --regs 24 --work 5000
--arch sm_80 --sms 108 --threads 128 --regs 32 --work 1000000 --carveout max-shared
--gpu h100 --regs 48 --threads 256 --sweep threads
--arch sm_75 --threads 256 --regs 32 --sweep regs
--arch sm_90 --threads 128 --regs 32 --sweep smem
--arch sm_80 --threads 1024 --regs 255
--arch gfx942 --threads 256 --vgprs 64 --agprs 32 --sgprs 40 --lds 8K
--gpu mi300x --threads 256 --vgprs 128 --work 100000
--gpu 7900xtx --threads 128 --vgprs 96 --waves-per-eu 2,8 --work 65536
--arch gfx1201 --threads 64 --vgprs 32 --lds 32K --work 1000
--gpu h100-sxm --threads 256 --regs 32 --cluster 4
--arch sm_120 --threads 256 --regs 32 --cluster 2,2
RUNS

# Values, not only shapes: the product as asked beside its id, the tool.
json() { # FILE KEY: the first value of "KEY" in the indented JSON
    awk -v key="\"$2\":" '$1 == key { v = $2; sub(/,$/, "", v); print v; exit }' "$1"
}
got="$(json "$work/c3.json" gpu) $(json "$work/c3.json" gpu_asked) $(json "$work/c3.json" name)"
[ "$got" = '"a100-40gb" "a100" "silk-occ"' ] || fail "--gpu a100: gpu, gpu_asked, tool.name: $got"
got="$(json "$work/c3.json" ctas) $(json "$work/c3.json" active_blocks_per_sm)"
[ "$got" = "3907 4" ] || fail "--gpu a100, 64 registers, 1000000 items: ctas, CTAs/SM: $got, want 3907 4"
got="$(json "$work/c12.json" gpu) $(json "$work/c12.json" gpu_asked) $(json "$work/c1.json" gpu_asked)"
[ "$got" = '"rx-7900-xtx" "7900xtx" null' ] || fail "--gpu 7900xtx, --arch sm_90: gpu, gpu_asked: $got"
got="$(json "$work/c1.json" ptxas) $(json "$work/c1.json" nvcc) $(json "$work/c1.json" llc)"
[ "$got" = "null null null" ] || fail "calc ran no tool, yet tool says: $got"

# Documents the schema must refuse, each with the key it names.
refuse() { # WHAT WANT SED: c1.json edited by SED must fail, saying WANT
    sed "$3" "$work/c1.json" >"$work/bad.json"
    out=$("$CHECK_SCHEMA" --schema "$schema" "$work/bad.json") &&
        fail "$1: check_schema accepts it"
    case $out in *"$2"*) ;; *) fail "$1: check_schema says '$out', not '$2'" ;; esac
}
refuse "a key it lacks" "key 'surprise' is not in the schema" 's/^\t"threads":/\t"surprise": 1,\n&/'
refuse "a wrong type" ".occupancy: wrong type" 's/^\t"occupancy":\t[0-9.]*/\t"occupancy": "full"/'
refuse "a required key missing" "required key 'next_step' missing" 's/^\t"next_step":/\t"next_steps":/'
refuse "a wrong schema id" ".schema: not one of the enum values" 's|silk-occ/calc/2|silk-occ/calc/1|'
refuse "a key the tool object lacks" ".tool: key 'cc' is not in the schema" \
    's/^\t\t"llc":\tnull/\t\t"llc": null, "cc": null/'
sed 's/"variable":\t"threads"/"variable":\t"none"/' "$work/c6.json" >"$work/bad.json"
"$CHECK_SCHEMA" --schema "$schema" "$work/bad.json" >/dev/null &&
    fail "a sweep of variable none: check_schema accepts it"
# A report is not a calc result: the two schemas are not interchangeable.
"$CHECK_SCHEMA" --schema "$schema" tests/report/golden/saxpy.json >/dev/null &&
    fail "check_schema accepts a report as a calc result"

[ "$failures" = 0 ] && echo "calc_schema: $n calc runs match $schema; 7 wrong documents refused"
[ "$failures" = 0 ]
