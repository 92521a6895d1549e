#!/usr/bin/env python3
"""Times a Triton block-scaled fp8 matmul (DeepSeek-V3's recipe) with CUDA
events and prints CSV: the comparison for tcgen's block-scaled sm90 kernels.

C[m, n] = sum_kb SA[m, kb] SB[n // 128, kb] sum_{k in block kb} A[m, k] B[n, k]

A [M, K] and B [N, K] are e4m3, SA [M, K/128] scales 1 x 128 blocks of A and
SB [ceil(N/128), K/128] 128 x 128 blocks of B (both f32), C is bf16 (or f16,
f32); K must be a multiple of 128. The kernel is the well-known form: per
128-wide K block one tl.dot of the fp8 tiles, scaled by the block's SA
column and SB scalar and added to the f32 accumulator.

Usage (on a GPU machine with Triton and PyTorch):
  python3 bench/triton/block_fp8.py --sizes 4096x2048x7168,4096x7168x2048
  python3 bench/triton/block_fp8.py --sizes 8192x8192x8192 --out-dtype f32

Each size is MxNxK. Every configuration below is checked against a float64
reference of a 256 x 256 x 512 problem first; each size is timed with every
configuration (median of --iters launches after --warmup), and the fastest
is printed: m,n,k,out_dtype,config,median_ms,tflops.
"""

import argparse
import statistics
import sys

import torch
import triton
import triton.language as tl

# (BLOCK_M, BLOCK_N, GROUP_M, num_warps, num_stages); BLOCK_K is 128, the
# scales' block, and BLOCK_N divides 128 so that a tile reads one SB scale
# per K block.
CONFIGS = [
    (128, 128, 8, 8, 4),
    (128, 128, 8, 4, 4),
    (64, 128, 8, 4, 5),
    (128, 64, 8, 4, 5),
    (256, 128, 8, 8, 3),
]
BLOCK_K = 128


@triton.jit
def block_fp8_kernel(a_ptr, b_ptr, c_ptr, sa_ptr, sb_ptr, M, N, K,
                     stride_am, stride_bn, stride_cm, stride_sam, stride_sbn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * num_n
    group = pid // in_group
    first_m = group * GROUP_M
    group_size = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % in_group) % group_size
    pid_n = (pid % in_group) // group_size

    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_n[None, :] * stride_bn + offs_k[:, None]
    sa_ptrs = sa_ptr + offs_m * stride_sam
    sb_ptr_tile = sb_ptr + (pid_n * BLOCK_N // 128) * stride_sbn

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kb in range(0, K // BLOCK_K):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        sa = tl.load(sa_ptrs + kb)
        sb = tl.load(sb_ptr_tile + kb)
        acc += tl.dot(a, b) * sa[:, None] * sb
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K

    c = acc.to(c_ptr.dtype.element_ty)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + rows[:, None] * stride_cm + cols[None, :]
    tl.store(c_ptrs, c, mask=(rows[:, None] < M) & (cols[None, :] < N))


def block_fp8_matmul(a, b, sa, sb, out_dtype, config):
    m, k = a.shape
    n = b.shape[0]
    bm, bn, group, warps, stages = config
    c = torch.empty((m, n), device=a.device, dtype=out_dtype)
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    block_fp8_kernel[grid](a, b, c, sa, sb, m, n, k, a.stride(0), b.stride(0),
                           c.stride(0), sa.stride(0), sb.stride(0),
                           BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=BLOCK_K,
                           GROUP_M=group, num_warps=warps, num_stages=stages)
    return c


def random_problem(m, n, k, seed=0):
    """e4m3 A and B in [-1, 1), scales 2^e times [0.5, 2) (8-bit)."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = (torch.rand((m, k), device="cuda", generator=g) * 2 - 1).to(
        torch.float8_e4m3fn)
    b = (torch.rand((n, k), device="cuda", generator=g) * 2 - 1).to(
        torch.float8_e4m3fn)

    def scales(rows, cols):
        mant = torch.randint(128, 512, (rows, cols), device="cuda",
                             generator=g).float() / 256
        exp = torch.randint(-4, 5, (rows, cols), device="cuda", generator=g)
        return torch.ldexp(mant, exp.float()).contiguous()

    return a, b, scales(m, k // 128), scales((n + 127) // 128, k // 128)


def reference(a, b, sa, sb):
    m, k = a.shape
    n = b.shape[0]
    a64 = a.double() * sa.double().repeat_interleave(128, dim=1)[:, :k]
    sb_full = sb.double().repeat_interleave(128, dim=0)[:n]
    b64 = b.double() * sb_full.repeat_interleave(128, dim=1)[:, :k]
    return a64 @ b64.t()


def check(config, out_dtype):
    a, b, sa, sb = random_problem(256, 256, 512, seed=1)
    out = block_fp8_matmul(a, b, sa, sb, out_dtype, config).double()
    ref = reference(a, b, sa, sb)
    scale = (a.double().abs() * sa.double().repeat_interleave(128, 1)) @ (
        b.double().abs() *
        sb.double().repeat_interleave(128, 0)[:256].repeat_interleave(128, 1)
    ).t()
    err = ((out - ref).abs() / scale.clamp_min(1e-30)).max().item()
    return err


def time_config(a, b, sa, sb, out_dtype, config, warmup, iters):
    for _ in range(warmup):
        block_fp8_matmul(a, b, sa, sb, out_dtype, config)
    times = []
    for _ in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        block_fp8_matmul(a, b, sa, sb, out_dtype, config)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="4096x4096x4096",
                        help="comma-separated MxNxK (K a multiple of 128)")
    parser.add_argument("--out-dtype", default="bf16",
                        choices=["bf16", "f16", "f32"])
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--iters", type=int, default=50)
    args = parser.parse_args()
    out_dtype = {"bf16": torch.bfloat16, "f16": torch.float16,
                 "f32": torch.float32}[args.out_dtype]

    good = []
    for config in CONFIGS:
        try:
            err = check(config, out_dtype)
        except Exception as e:  # a config the GPU cannot run (resources)
            print(f"# config {config}: skipped ({type(e).__name__})",
                  file=sys.stderr)
            continue
        ok = err < 2e-2
        print(f"# config {config}: max normalized error {err:.3e} "
              f"{'PASS' if ok else 'FAIL'}", file=sys.stderr)
        if ok:
            good.append(config)
    if not good:
        sys.exit("no configuration passed the check")

    print("m,n,k,out_dtype,config,median_ms,tflops")
    for size in args.sizes.split(","):
        m, n, k = (int(x) for x in size.lower().split("x"))
        if k % 128:
            sys.exit(f"K = {k} is not a multiple of 128")
        a, b, sa, sb = random_problem(m, n, k)
        best = None
        for config in good:
            ms = time_config(a, b, sa, sb, out_dtype, config, args.warmup,
                             args.iters)
            if best is None or ms < best[1]:
                best = (config, ms)
        config, ms = best
        tflops = 2.0 * m * n * k / (ms * 1e-3) / 1e12
        name = "x".join(str(c) for c in config)
        print(f"{m},{n},{k},{args.out_dtype},{name},{ms:.4f},{tflops:.1f}")


if __name__ == "__main__":
    main()
