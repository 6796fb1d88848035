#!/usr/bin/env python3
"""Compare jaxsh's eager jnp calls with NumPy on the same machine, same run.

Usage (needs NumPy: apt-get install python3-numpy; run with /usr/bin/python3
where the default python3 lacks it):

    /usr/bin/python3 bench/compare.py [-count N]

It times each NumPy operation (median of several runs after a warm-up), runs
the matching Go benchmarks of starlark/bench_test.go, and prints one row per
operation: both times and jaxsh's time as a ratio of NumPy's (below 1 is
faster), plus throughput against a measured memory-copy bandwidth.
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


def numpy_cases():
    x = np.arange(N, dtype=np.float32)
    y = x * np.float32(0.5)
    xs = np.arange(N, dtype=np.float32) * np.float32(1e-3)
    a = np.ones((512, 512), dtype=np.float32) * np.float32(0.5)
    c = a + 1
    return {
        "JnpAddFloat32_16M": (lambda: np.add(x, y), 3 * 4 * N, "bytes"),
        "JnpSinFloat32_16M": (lambda: np.sin(xs), 2 * 4 * N, "bytes"),
        "JnpSumFloat32_16M": (lambda: np.sum(xs), 4 * N, "bytes"),
        "JnpMatmulFloat32_512": (lambda: a @ c, 2 * 512 ** 3, "flops"),
    }


def copy_bandwidth():
    src = np.ones(N * 4, dtype=np.uint8) * 3
    dst = np.empty_like(src)
    t = median_time(lambda: np.copyto(dst, src))
    return 2 * src.nbytes / t  # read + write


def go_benchmarks(count):
    out = subprocess.run(
        ["go", "test", "-run=NONE", "-bench=Jnp", "-benchtime=10x", f"-count={count}", "./starlark/"],
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
    bw = copy_bandwidth()
    cases = numpy_cases()
    numpy_times = {name: median_time(fn) for name, (fn, _, _) in cases.items()}
    go_times = go_benchmarks(count)
    print(f"NumPy {np.__version__}; memory copy bandwidth {bw / 1e9:.1f} GB/s (read+write)")
    print(f"{'operation':24} {'numpy':>10} {'jaxsh':>10} {'jaxsh/numpy':>12} {'jaxsh rate':>16}")
    for name, (_, work, unit) in cases.items():
        nt, gt = numpy_times[name], go_times.get(name)
        if gt is None:
            print(f"{name:24} {nt * 1e3:9.2f}ms {'missing':>10}")
            continue
        rate = f"{work / gt / 1e9:.1f} GB/s ({work / gt / bw:.0%} bw)" if unit == "bytes" else f"{work / gt / 1e9:.1f} GFLOP/s"
        print(f"{name:24} {nt * 1e3:9.2f}ms {gt * 1e3:9.2f}ms {gt / nt:12.2f} {rate:>16}")


if __name__ == "__main__":
    main()
