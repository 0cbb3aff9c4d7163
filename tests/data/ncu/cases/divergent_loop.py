"""warp_divergence: a per-element loop whose trip count comes from the data (written as inline PTX, since
Triton itself has no per-lane branches): one element in 256 loops 4000 times, the rest not at all, so in a
warp one lane works while 31 wait on the branch."""
import torch
import triton
import triton.language as tl

LOOP = tl.constexpr("""{
  .reg .pred p;
  .reg .u32 n;
  mov.u32 n, $2;
  mov.f32 $0, $1;
  L${:uid}:
  setp.eq.u32 p, n, 0;
  @p bra D${:uid};
  fma.rn.f32 $0, $0, 0f3F800001, 0f33D6BF95;
  sub.u32 n, n, 1;
  bra L${:uid};
  D${:uid}:
}""")


@triton.jit
def diverge_k(x_ptr, n_ptr, o_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    trips = tl.load(n_ptr + offs)
    y = tl.inline_asm_elementwise(LOOP, "=f,f,r", [x, trips], dtype=tl.float32, is_pure=True, pack=1)
    tl.store(o_ptr + offs, y)


sms = torch.cuda.get_device_properties(0).multi_processor_count
BLOCK = 1024
n = sms * 16 * BLOCK * 4
x = torch.randn(n, device="cuda")
trips = torch.where(torch.arange(n, device="cuda") % 256 == 0, 4000, 0).to(torch.int32)
o = torch.empty_like(x)
for _ in range(2):
    diverge_k[(n // BLOCK,)](x, trips, o, BLOCK=BLOCK, num_warps=4)
torch.cuda.synchronize()
