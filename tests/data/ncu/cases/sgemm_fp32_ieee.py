"""tensor_cores_unused: an fp32 GEMM with input_precision="ieee" multiplies on the FMA pipe; TF32 or 3xTF32
tensor-core math would do the same product several times faster."""
import torch
import triton
import triton.language as tl


@triton.jit
def fma_gemm_k(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


M = N = K = 4096
a = torch.randn(M, K, device="cuda")
b = torch.randn(K, N, device="cuda")
c = torch.empty(M, N, device="cuda")
for _ in range(2):
    fma_gemm_k[(M // 64, N // 64)](a, b, c, M, N, K, BM=64, BN=64, BK=32, num_warps=4)
torch.cuda.synchronize()
