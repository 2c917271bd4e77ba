#!/bin/sh
# exec_cuda.sh: `silkc exec --backend cuda` end to end through the test
# double of the CUDA Driver API (tests/runtime/fake_cuda.so, loaded with
# SILK_CUDA_LIBRARY; its log says what was called and asked): the buffers
# come back as uploaded, one module loaded for the device's target, one
# launch with the right geometry, dynamic shared memory and parameter
# bytes, exactly one synchronisation (also after a failed launch), every
# allocation freed; each failure of the driver one line with its name and
# the exit status silkc(1) gives it.  Run by `make check` from the build
# directory (SILKC and FAKE_CUDA override); exits 77 (skipped) without a C
# compiler, which the CPU runs compared against need.
set -u
silkc=${SILKC:-$PWD/src/silkc}
fake=${FAKE_CUDA:-$PWD/tests/runtime/fake_cuda.so}
command -v "${CC:-cc}" >/dev/null 2>&1 || { echo "SKIP: no C compiler (cc) for the CPU backend"; exit 77; }
[ -f "$fake" ] || { echo "FAIL: no $fake (make check builds it)"; exit 1; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }
unset FAKE_CUDA_CC FAKE_CUDA_SMS FAKE_CUDA_DEVICES FAKE_CUDA_OCCUPANCY FAKE_CUDA_FAIL FAKE_CUDA_JIT_ERROR

# gpu VAR=VALUE... -- ARGS...: silkc exec --backend cuda on the fake, its
# settings in the environment; stdout in out, stderr in err, the log in log.
gpu() {
    rm -f log
    env_args=""
    while [ "$1" != -- ]; do
        env_args="$env_args $1"
        shift
    done
    shift
    # shellcheck disable=SC2086 # the settings are words
    env SILK_CUDA_LIBRARY="$fake" FAKE_CUDA_LOG="$work/log" $env_args \
        "$silkc" exec --backend cuda "$@" >out 2>err
}
# logged LINE: the fake's log has exactly this line.
logged() { grep -qx -- "$1" log || fail "the fake's log lacks '$1':$(sed 's/^/ | /' log)"; }
# exits WANT: the last run's exit status.
exits() { [ "$1" -eq "$2" ] || fail "exit $1, want $2 ($(cat err))"; }
# says LINE: the last run's stderr is exactly LINE.
says() { [ "$(cat err)" = "$1" ] || fail "stderr
  got:  $(cat err)
  want: $1"; }

cat > touch.silk <<'SILK'
@launch(32)
kernel touch(n: u64, on: u32, h: u16, d: f64, x: tensor<f32>[n], y: tensor<i64>[n], z: tensor<u8>[n]) {
  let i = ctx.gid
  if on != 0u32 && i < n {
    x[i] = f32(d)
    y[i] = i64(h)
    z[i] = u8(h)
  }
}
SILK
args="--kernel touch --grid 100 --arg 100 --arg 0 --arg 0x1234 --arg -2.5 \
    --buf f32:100:random --buf i64:100:random --buf u8:100:random"

# ---- a run: what the launch asked, and the buffers back as uploaded ----------------------
# shellcheck disable=SC2086
"$silkc" exec touch.silk $args --seed 5 --out cpu.bin 2>err || fail "the CPU run: $(cat err)"
# shellcheck disable=SC2086
gpu -- touch.silk $args --seed 5 --out gpu.bin
exits $? 0
cmp -s cpu.bin gpu.bin || fail "the buffers did not come back as uploaded (the fake runs nothing)"
[ "$(wc -c < gpu.bin)" -eq 1300 ] || fail "--out wrote $(wc -c < gpu.bin) bytes, want 100 * (4 + 8 + 1)"
logged "call cuModuleLoadDataEx 1"
logged "call cuLaunchKernel 1"
logged "call cuCtxSynchronize 1"
logged "target sm_90"
# 100 items in CTAs of 32: 4 CTAs, the last partly idle; each parameter
# read with its .param size (u64, u32, u16, f64 -2.5, then the buffers).
logged "launch touch grid=4,1,1 block=32,1,1 shared=0 params=0x64,0x0,0x1234,0xc004000000000000,@1,@2,@3"
logged "call cuMemAlloc_v2 3"
logged "call cuMemcpyHtoD_v2 3"
logged "call cuMemcpyDtoH_v2 3"
logged "allocs 3"
logged "frees 3"
logged "live 0"
logged "bad_frees 0"
logged "call cuModuleUnload 1"
logged "call cuDevicePrimaryCtxRelease_v2 1"
grep -q "^call cuFuncSetAttribute" log && fail "a kernel without @smem declared dynamic shared memory"

# --dump prints as on the CPU.
cat > scale.silk <<'SILK'
@launch(64)
kernel scale(n: u64, x: tensor<f32>[n], s: f32, y: tensor<i32>[n]) {
  let i = ctx.gid
  if i < n {
    x[i] = x[i] * s
    y[i] = i32(ctx.cta) - 1
  }
}
SILK
gpu -- scale.silk --kernel scale --grid 70 --arg 70 --buf f32:3:2.5 --arg 1.5 --buf i32:2:-9 --dump
exits $? 0
printf 'buffer 1: f32[3]\n2.5 2.5 2.5\nbuffer 2: i32[2]\n-9 -9\n' > want
cmp -s out want || fail "--dump: $(cat out)"
logged "launch scale grid=2,1,1 block=64,1,1 shared=0 params=0x46,@1,0x3fc00000,@2"

# ---- the target: the device's compute capability, else the newest below ----------------
gpu FAKE_CUDA_CC=120 -- scale.silk --kernel scale --grid 64 --arg 1 --buf f32:1:0 --arg 1 --buf i32:1:0
exits $? 0
logged "target sm_120"
gpu FAKE_CUDA_CC=99 -- scale.silk --kernel scale --grid 64 --arg 1 --buf f32:1:0 --arg 1 --buf i32:1:0
exits $? 0
logged "target sm_90"
gpu FAKE_CUDA_CC=130 -- scale.silk --kernel scale --grid 64 --arg 1 --buf f32:1:0 --arg 1 --buf i32:1:0
exits $? 0
logged "target sm_121"
gpu FAKE_CUDA_CC=70 -- scale.silk --kernel scale --grid 64 --arg 1 --buf f32:1:0 --arg 1 --buf i32:1:0
exits $? 3
says "silkc: error: --backend cuda: Fake CUDA device has compute capability 7.0, below every target of silkc (sm_75 to sm_121)"

# ---- @persistent and @smem: min(logical, SMs x CTAs per SM) CTAs --------------------------
cat > chunks.silk <<'SILK'
@launch(64)
@persistent
@smem(4096)
kernel chunks(n: u64, out: tensor<u32>[n]) {
  let i = ctx.gid
  if i < n {
    out[i] = u32(ctx.cta)
  }
}
SILK
gpu FAKE_CUDA_SMS=3 FAKE_CUDA_OCCUPANCY=2 -- chunks.silk --kernel chunks --grid 6400 --arg 6400 --buf u32:6400:0
exits $? 0
logged "occupancy threads=64 shared=4096"
logged "attribute chunks max_dynamic_shared=4096"
logged "launch chunks grid=6,1,1 block=64,1,1 shared=4096 params=0x1900,@1,0x64"
gpu FAKE_CUDA_SMS=3 FAKE_CUDA_OCCUPANCY=2 -- chunks.silk --kernel chunks --grid 200 --arg 200 --buf u32:200:0
exits $? 0
logged "launch chunks grid=4,1,1 block=64,1,1 shared=4096 params=0xc8,@1,0x4"
gpu FAKE_CUDA_OCCUPANCY=0 -- chunks.silk --kernel chunks --grid 200 --arg 200 --buf u32:200:0
exits $? 1
says "silkc: error: --backend cuda: kernel chunks: no CTA of 64 threads and 4096 bytes of dynamic shared memory fits on a multiprocessor of Fake CUDA device"
grep -q "^call cuLaunchKernel" log && fail "launched a kernel that fits nowhere"
logged "live 0"

# ---- failures of the driver -----------------------------------------------------------
run_args="scale.silk --kernel scale --grid 70 --arg 70 --buf f32:70:2 --arg 1.5 --buf i32:70:9 --out never.bin"
# A launch refused: its name and number, exit 1, still one synchronisation,
# nothing written, everything freed.
# shellcheck disable=SC2086
gpu FAKE_CUDA_FAIL=cuLaunchKernel:719 -- $run_args
exits $? 1
says "silkc: error: --backend cuda: kernel scale: the launch failed: cuLaunchKernel: CUDA_ERROR_LAUNCH_FAILED (719)"
logged "call cuLaunchKernel 1"
logged "call cuCtxSynchronize 1"
logged "live 0"
[ -e never.bin ] && fail "--out was written after a failed launch"
# Both failing: one line with both.
# shellcheck disable=SC2086
gpu FAKE_CUDA_FAIL=cuLaunchKernel:1,cuCtxSynchronize:700 -- $run_args
exits $? 1
says "silkc: error: --backend cuda: kernel scale: the launch failed: cuLaunchKernel: CUDA_ERROR_INVALID_VALUE (1): then the kernel failed: cuCtxSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS (700)"
logged "call cuCtxSynchronize 1"
# The kernel faulting: the synchronisation's error.
# shellcheck disable=SC2086
gpu FAKE_CUDA_FAIL=cuCtxSynchronize:700 -- $run_args
exits $? 1
says "silkc: error: --backend cuda: kernel scale: the kernel failed: cuCtxSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS (700)"
grep -q "^call cuMemcpyDtoH_v2" log && fail "downloaded the buffers of a kernel that faulted"
logged "live 0"
[ -e never.bin ] && fail "--out was written after a fault"
# A CUresult the driver has no name for.
# shellcheck disable=SC2086
gpu FAKE_CUDA_FAIL=cuLaunchKernel:12345 -- $run_args
exits $? 1
says "silkc: error: --backend cuda: kernel scale: the launch failed: cuLaunchKernel: CUresult 12345 (12345)"
# The module refused by the JIT: its error log's first line; the others as notes.
FAKE_CUDA_JIT_ERROR='ptxas fatal: one
second line'
export FAKE_CUDA_JIT_ERROR
# shellcheck disable=SC2086
gpu FAKE_CUDA_FAIL=cuModuleLoadDataEx:218 -- $run_args
exits $? 1
unset FAKE_CUDA_JIT_ERROR
says "silkc: error: --backend cuda: kernel scale: the module did not load: cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (218): ptxas fatal: one
silkc: note: second line"
grep -q "^call cuLaunchKernel" log && fail "launched after the module failed to load"
logged "live 0"
# A driver too old for the PTX: the environment's, exit 3.
# shellcheck disable=SC2086
gpu FAKE_CUDA_FAIL=cuModuleLoadDataEx:222 -- $run_args
exits $? 3
says "silkc: error: --backend cuda: kernel scale: the module did not load: cuModuleLoadDataEx: CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)"
# Out of device memory: exit 3, what was allocated freed.
# shellcheck disable=SC2086
gpu FAKE_CUDA_FAIL=cuMemAlloc_v2:2 -- $run_args
exits $? 3
says "silkc: error: --backend cuda: out of device memory: cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (2): 280 bytes"
logged "live 0"
# No device: cuInit's answer, or none of ordinal 0.
# shellcheck disable=SC2086
gpu FAKE_CUDA_FAIL=cuInit:100 -- $run_args
exits $? 3
says "silkc: error: --backend cuda: no CUDA device: cuInit: CUDA_ERROR_NO_DEVICE (100)"
# shellcheck disable=SC2086
gpu FAKE_CUDA_DEVICES=0 -- $run_args
exits $? 3
says "silkc: error: --backend cuda: no CUDA device: the driver has 0 devices, and device 0 was asked for"
# shellcheck disable=SC2086
gpu FAKE_CUDA_FAIL=cuDevicePrimaryCtxRetain:3 -- $run_args
exits $? 3
says "silkc: error: --backend cuda: the CUDA driver failed: cuDevicePrimaryCtxRetain: CUDA_ERROR_NOT_INITIALIZED (3)"

# ---- no driver: exit 3, one line with dlerror's reason --------------------------------------
# shellcheck disable=SC2086
SILK_CUDA_LIBRARY=/nonexistent "$silkc" exec --backend cuda $run_args >out 2>err
exits $? 3
says "silkc: error: --backend cuda: no CUDA driver: /nonexistent: cannot open shared object file: No such file or directory"
# A library that is not a driver: the first entry point missing.
# shellcheck disable=SC2086
SILK_CUDA_LIBRARY=libm.so.6 "$silkc" exec --backend cuda $run_args >out 2>err
exits $? 3
grep -q "^silkc: error: --backend cuda: no CUDA driver: .*libm.so.6: undefined symbol: cuInit$" err ||
    fail "a library without cuInit: $(cat err)"
# This machine's own driver, when it has none (the test machines have none).
if (ldconfig -p 2>/dev/null; ls /usr/lib*/libcuda.so.1 /usr/lib/*/libcuda.so.1 2>/dev/null) |
        grep -q 'libcuda\.so\.1'; then
    echo "note: this machine has libcuda.so.1: the no-driver case of the real library not run"
else
    # shellcheck disable=SC2086
    env -u SILK_CUDA_LIBRARY "$silkc" exec --backend cuda $run_args >out 2>err
    exits $? 3
    says "silkc: error: --backend cuda: no CUDA driver: libcuda.so.1: cannot open shared object file: No such file or directory"
fi

# ---- the options ----------------------------------------------------------------------------
E="silkc: error:"
gpu -- scale.silk --kernel scale --grid 64 --sms 8 --arg 1 --buf f32:1:0 --arg 1 --buf i32:1:0
exits $? 2
says "$E --sms: with --backend cuda, ctx.sms is the device's"
gpu -- scale.silk --kernel scale --grid 64 --workers 2 --arg 1 --buf f32:1:0 --arg 1 --buf i32:1:0
exits $? 2
says "$E --workers: only --backend cpu runs CTAs on worker threads"
gpu -- scale.silk --kernel scale --grid 64 --race --arg 1 --buf f32:1:0 --arg 1 --buf i32:1:0
exits $? 2
says "$E --race: only --backend cpu checks races (a GPU gives no such check)"
"$silkc" exec scale.silk --backend gpu --kernel scale --grid 64 >out 2>err
exits $? 2
says "$E --backend: 'gpu' is not cpu or cuda; 'silkc --help' shows usage"
"$silkc" exec scale.silk --backend cpu --backend cuda --kernel scale --grid 64 >out 2>err
exits $? 2
says "$E --backend given twice; 'silkc --help' shows usage"
# The binding's errors are the CPU's, before anything is allocated.
gpu -- scale.silk --kernel scale --grid 64 --arg 1
exits $? 2
says "$E --kernel scale takes 4 parameters, and 1 --arg and --buf were given"
gpu -- scale.silk --kernel nope --grid 64
exits $? 2
says "$E --kernel nope: no such kernel in the program"
logged "allocs 0"
# --backend cpu is the default's run, with its checks.
"$silkc" exec scale.silk --backend cpu --kernel scale --grid 70 --arg 70 --buf f32:3:2 --arg 1.5 \
    --buf i32:70:0 >out 2>err
exits $? 1
says "scale.silk:5:5: kernel scale, CTA 0, thread 3: a load of 4 bytes at byte 12 of buffer 1, which has 12 bytes"
exit $status
