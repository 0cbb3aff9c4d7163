"""low_data_reuse: a bf16 GEMM with 16x16 output tiles re-reads every operand K/16 times through L2; the
tensor cores wait on loads. Compulsory bytes: A, B (4096x4096 bf16 each) and C (fp32) = 192 MiB."""
import torch
import triton
import triton.language as tl


@triton.jit
def tiny_tile_gemm_k(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


M = N = K = 4096
a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
c = torch.empty(M, N, device="cuda")
for _ in range(2):
    tiny_tile_gemm_k[(M // 16, N // 16)](a, b, c, M, N, K, BM=16, BN=16, BK=16, num_warps=1)
torch.cuda.synchronize()
