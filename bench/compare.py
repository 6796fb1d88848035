#!/usr/bin/env python3
"""Compare jaxsh's eager jnp calls with NumPy on the same machine, same run.

Usage (needs NumPy: apt-get install python3-numpy; run with /usr/bin/python3
where the default python3 lacks it):

    /usr/bin/python3 bench/compare.py [-count N]

It times each NumPy operation (median of several runs after a warm-up), runs
the matching Go benchmarks of starlark/bench_test.go, and prints one row per
operation: both times and jaxsh's time as a ratio of NumPy's (below 1 is
faster), plus, for memory-bound operations, the bytes moved per second
against the triad bandwidth measured in the same run (BenchmarkTriad).
"""
import re
import subprocess
import sys
import time

import numpy as np

N = 1 << 24


def median_time(fn, runs=7):
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2]


def f_well_fused(x):
    # The study's function, kept in float32 as jax.numpy keeps it (NumPy
    # would promote float32 + int64 to float64).
    a = x * np.float32(2)
    b = (np.arange(a.shape[0], dtype=np.int32)[:, None] * 3).astype(np.float32)
    c = x[0] + x - a
    return np.sin(a) + a ** 2 + b + c


def f_sum(x):
    return x * np.float32(2) + np.sum(x, axis=1, keepdims=True)


def numpy_cases():
    x8 = (np.arange(8 * 1024 * 1024 * 2, dtype=np.float32) * np.float32(1e-6)).reshape(8 * 1024 * 1024, 2)
    m1 = np.ones((1024, 1024), dtype=np.float32) * np.float32(0.5)
    m2 = m1 + 1
    tiny = np.ones(4, dtype=np.float32)
    x = np.arange(N, dtype=np.float32)
    y = x * np.float32(0.5)
    xs = np.arange(N, dtype=np.float32) * np.float32(1e-3)
    a = np.ones((512, 512), dtype=np.float32) * np.float32(0.5)
    c = a + 1
    n1m = 1 << 20
    z1m = (np.sin(np.arange(n1m, dtype=np.float32)) + 1j * np.cos(np.arange(n1m, dtype=np.float32) * np.float32(0.5))).astype(np.complex64)
    r2 = np.sin(np.arange(1000000, dtype=np.float32)).reshape(1000, 1000)
    z2 = (r2 + 1j * r2.T).astype(np.complex64)
    g = np.random.default_rng(0).standard_normal((512, 512))
    spd = g @ g.T + 512 * np.eye(512)
    rhs = np.ones(512)
    return {
        # NumPy 1.24's pocketfft computes complex64 in complex128.
        "JnpFFTComplex64_1M": (lambda: np.fft.fft(z1m), 5 * n1m * 20, "flops"),
        "JnpFFT2Complex64_1000": (lambda: np.fft.fft2(z2), 5 * 10**6 * 20, "flops"),
        "JnpSolveFloat64_512": (lambda: np.linalg.solve(spd, rhs), 2 * 512 ** 3 // 3, "flops"),
        "JnpCholeskyFloat64_512": (lambda: np.linalg.cholesky(spd), 512 ** 3 // 3, "flops"),
        "JnpSvdFloat64_512": (lambda: np.linalg.svd(spd), 0, "latency"),
        "JnpEighFloat64_512": (lambda: np.linalg.eigh(spd), 0, "latency"),
        "JnpAddFloat32_16M": (lambda: np.add(x, y), 3 * 4 * N, "bytes"),
        "JnpSinFloat32_16M": (lambda: np.sin(xs), 2 * 4 * N, "bytes"),
        "JnpSumFloat32_16M": (lambda: np.sum(xs), 4 * N, "bytes"),
        "JnpMatmulFloat32_512": (lambda: a @ c, 2 * 512 ** 3, "flops"),
        "JnpMatmulFloat32_1024": (lambda: m1 @ m2, 2 * 1024 ** 3, "flops"),
        "JitWellFused8M": (lambda: f_well_fused(x8), 2 * x8.nbytes, "bytes"),
        "JitSumKeepdims8M": (lambda: f_sum(x8), 2 * x8.nbytes, "bytes"),
        "EagerAdd4": (lambda: tiny + tiny, 0, "latency"),
    }


def triad_bandwidth(go_times):
    # STREAM's triad a = b + 3c over 16M float32, in plain Go on every core
    # (BenchmarkTriad): the machine's memory bandwidth, measured in this run.
    return 3 * 4 * N / go_times["Triad"]


def go_benchmarks(count):
    out = subprocess.run(
        ["go", "test", "-run=NONE", "-bench=Jnp|Jit|Eager|Triad", "-benchtime=10x", f"-count={count}", "./starlark/"],
        capture_output=True, text=True, check=True).stdout
    results = {}
    for line in out.splitlines():
        m = re.match(r"Benchmark(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", line)
        if m:
            results.setdefault(m.group(1), []).append(float(m.group(2)) * 1e-9)
    return {k: sorted(v)[len(v) // 2] for k, v in results.items()}


def main():
    count = 3
    if "-count" in sys.argv:
        count = int(sys.argv[sys.argv.index("-count") + 1])
    cases = numpy_cases()
    numpy_times = {name: median_time(fn) for name, (fn, _, _) in cases.items()}
    go_times = go_benchmarks(count)
    bw = triad_bandwidth(go_times)
    print(f"NumPy {np.__version__}; triad bandwidth {bw / 1e9:.1f} GB/s (BenchmarkTriad, this run)")
    if "JitDispatch4" in go_times:
        print(f"jit dispatch of a 4-element call from a Starlark loop: {go_times['JitDispatch4'] * 1e6:.2f} us")
    print(f"{'operation':24} {'numpy':>11} {'jaxsh':>11} {'jaxsh/numpy':>12} {'jaxsh rate':>28}")
    for name, (_, work, unit) in cases.items():
        nt, gt = numpy_times[name], go_times.get(name)
        if gt is None:
            print(f"{name:24} {nt * 1e3:9.2f}ms {'missing':>10}")
            continue
        if unit == "bytes":
            rate = f"{work / gt / 1e9:.1f} GB/s ({work / gt / bw:.0%} of triad)"
        elif unit == "flops":
            rate = f"{work / gt / 1e9:.1f} GFLOP/s"
        else:
            rate = f"{gt * 1e6:.2f} us per op"
        print(f"{name:24} {nt * 1e3:9.3f}ms {gt * 1e3:9.3f}ms {gt / nt:12.2f} {rate:>28}")


if __name__ == "__main__":
    main()
