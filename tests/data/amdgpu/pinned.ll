; pinned.ll: two kernels whose figures are pinned, compiled by llc-19 and
; linked by ld.lld-19 into pinned.gfx942.hsaco and pinned.gfx1100.hsaco,
; the code objects tests/unit/check_hsaco.c reads (make-pinned.sh):
;   @pinned  clobbers v39 and s39 (inline asm), so it has at least 40 VGPRs
;            and SGPRs; uses 1000 bytes of LDS; keeps a 64-byte private array
;            (scratch); a workgroup of exactly 128.
;   @plain   stores one value, no LDS, no scratch.
target triple = "amdgcn-amd-amdhsa"

@lds = internal addrspace(3) global [250 x i32] poison, align 4

define amdgpu_kernel void @pinned(ptr addrspace(1) %out, i32 %i) #0 {
entry:
  %priv = alloca [16 x i32], align 4, addrspace(5)
  call void asm sideeffect "", "~{v39},~{s39}"()
  %p = getelementptr [16 x i32], ptr addrspace(5) %priv, i32 0, i32 %i
  store volatile i32 %i, ptr addrspace(5) %p, align 4
  %q = getelementptr [250 x i32], ptr addrspace(3) @lds, i32 0, i32 %i
  store volatile i32 %i, ptr addrspace(3) %q, align 4
  %r = load volatile i32, ptr addrspace(5) %p, align 4
  %s = load volatile i32, ptr addrspace(3) %q, align 4
  %t = add i32 %r, %s
  store i32 %t, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @plain(ptr addrspace(1) %out) {
entry:
  store i32 7, ptr addrspace(1) %out, align 4
  ret void
}

attributes #0 = { "amdgpu-flat-work-group-size"="128,128" }
