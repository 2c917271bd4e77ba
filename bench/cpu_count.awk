# cpu_count.awk: how many IR instructions one thread of a one-loop kernel
# executes, from `silkc compile K.silk --emit=ir` (the IR the CPU backend
# runs: the same lowering and passes as `silkc exec`, before any target).
#
#   awk -v iters=N -f cpu_count.awk K.ir
#
# prints "ALL REAL ROUND_ALL ROUND_REAL": the instructions a thread executes
# for a loop of N rounds, all of them and without phis and unconditional
# branches (which the generated C turns into copies and gotos, no work),
# then the same for one round.  The loop is found as the one backward
# branch (a branch to a block at or before its own): the blocks from its
# target, the header, to the branch's block, the latch.  The header runs
# N + 1 times (its test also exits), the other loop blocks N times, and
# every block outside the loop once: true of bench/cpu_compute.silk when
# its grid equals its n, since every thread then stores its result.
# Anything else (a second loop, a branch inside the body) could not be
# counted this way: the script prints why and exits 1.

function fail(why) { print "cpu_count.awk: " why > "/dev/stderr"; failed = 1; exit 1 }

/^@b[0-9]+:$/ {
    block = substr($1, 1, length($1) - 1)
    order[block] = n_blocks++
    name[order[block]] = block
    next
}

# An instruction: "  %12: f32 = phi ...", "  store.global ...", "  br @b1".
/^  [^ ]/ && n_blocks > 0 {
    b = n_blocks - 1
    op = $2 == "=" || $3 == "=" ? ($3 == "=" ? $4 : $3) : $1
    all[b]++
    if (op != "phi" && op != "br")
        real[b]++
    if (op == "br" || op == "cbr") {
        terminator[b] = op
        for (i = 2; i <= NF; i++) {
            target = $i
            sub(/,$/, "", target)
            if (target ~ /^@b[0-9]+$/ && target in order && order[target] <= b) {
                if (header != "")
                    fail("more than one backward branch: not a one-loop kernel")
                header = order[target]
                latch = b
            }
        }
    }
}

END {
    if (failed)
        exit 1
    if (header == "")
        fail("no loop in the IR")
    if (terminator[header] != "cbr")
        fail("the loop's header " name[header] " does not end in its exit test")
    for (b = header + 1; b <= latch; b++)
        if (terminator[b] != "br")
            fail("block " name[b] " branches inside the loop: its body is not straight")
    for (b = 0; b < n_blocks; b++) {
        times = b == header ? iters + 1 : b > header && b <= latch ? iters : 1
        total_all += times * all[b]
        total_real += times * real[b]
        if (b >= header && b <= latch) {
            round_all += all[b]
            round_real += real[b]
        }
    }
    printf "%d %d %d %d\n", total_all, total_real, round_all, round_real
}
