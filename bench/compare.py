#!/usr/bin/env python3
"""One table of jaxsh against NumPy, measured in one run on one machine.

Usage (needs NumPy: apt-get install python3-numpy; run with /usr/bin/python3
where the default python3 lacks it):

    /usr/bin/python3 bench/compare.py [-count N] [-rounds R] [-only REGEXP]

-only keeps the rows whose Go benchmark name matches REGEXP (the machine's
limits are measured all the same).

Each round times every NumPy case (median of several calls after a warm-up)
and runs the Go benchmarks: the jaxsh cases (bench/bench_test.go,
bench/bench_ops_test.go and the rest of bench/*_test.go), the machine's limits (bench/machine: FMA peak,
read and triad bandwidth, measured by vector loops in the same run) and the
compile-time scaling (jit/fuse_merge_bench_test.go). Rounds interleave the
two sides so that a noisy neighbour hurts both alike; the table reports
medians over rounds.

Columns: NumPy's time and jaxsh's, NumPy/jaxsh (above 1: jaxsh is faster),
and jaxsh's rate as a fraction of the machine's bound for that row (FMA
peak for matmuls, read bandwidth for searches and reductions, triad
bandwidth for elementwise ops and copies); rows with no such bound (sorts,
gathers, per-call latency) show the rate alone.
"""
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

N = 1 << 24
M = 1 << 20


# The per-call latency rows: one call takes well under a microsecond (a
# 64x64 matmul a few), so a single timed call, or Go's mean of three,
# measures the clock, the cold cache and waking the workers instead. Both
# sides time a long loop of calls (NumPy: LATENCY_CALLS per sample, median
# of samples; Go: -benchtime LATENCY_BENCHTIME) and report the time per call.
LATENCY_ROWS = {"EagerAdd4", "EagerAddScalar4", "EagerSin4", "JitDispatch4", "JnpMatmulFloat32_64"}
LATENCY_CALLS = 20000
LATENCY_BENCHTIME = "200000x"


def loop_time(fn, samples=5):
    fn()
    times = []
    for _ in range(samples):
        t0 = time.perf_counter()
        for _ in range(LATENCY_CALLS):
            fn()
        times.append((time.perf_counter() - t0) / LATENCY_CALLS)
    return statistics.median(times)


def median_time(fn, runs=7):
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def f_well_fused(x):
    # The study's function, kept in float32 as jax.numpy keeps it (NumPy
    # would promote float32 + int64 to float64).
    a = x * np.float32(2)
    b = (np.arange(a.shape[0], dtype=np.int32)[:, None] * 3).astype(np.float32)
    c = x[0] + x - a
    return np.sin(a) + a ** 2 + b + c


def f_sum(x):
    return x * np.float32(2) + np.sum(x, axis=1, keepdims=True)


def chain6(x, y):
    return ((x * y + np.float32(1.5)) - y) * x / (y + np.float32(2))


# Each row: Go benchmark name, NumPy callable factory, work, kind of bound.
# Kinds: "triad" (bytes moved, elementwise), "read" (bytes read), "fma"
# (float32 flops against the FMA peak), "flops" (a rate with no single
# bound), None (time only).
def numpy_cases():
    rng = np.random.default_rng(0)
    x8 = (np.arange(8 * M * 2, dtype=np.float32) * np.float32(1e-6)).reshape(8 * M, 2)
    x = np.arange(N, dtype=np.float32)
    y = x * np.float32(0.5)
    xs = np.arange(N, dtype=np.float32) * np.float32(1e-3)
    xe = np.arange(N, dtype=np.float32) * np.float32(1e-6) - np.float32(8)
    xl = np.arange(N, dtype=np.float32) * np.float32(1e-3) + np.float32(1)
    u16 = rng.random(N, dtype=np.float32)
    u1 = rng.random(M, dtype=np.float32)
    v16 = rng.random(N, dtype=np.float32)
    idx = rng.integers(0, N, M, dtype=np.int32)
    sq = rng.random((4096, 4096), dtype=np.float32)
    vec = rng.random(4096, dtype=np.float32)
    tiny = np.ones(4, dtype=np.float32)

    def mats(*shape):
        return rng.random(shape, dtype=np.float32), rng.random(shape, dtype=np.float32)

    m64, m512, m1k, m2k, bat = mats(64, 64), mats(512, 512), mats(1024, 1024), mats(2048, 2048), mats(256, 64, 64)
    z1m = (np.sin(np.arange(M, dtype=np.float32)) + 1j * np.cos(np.arange(M, dtype=np.float32) * np.float32(0.5))).astype(np.complex64)
    r2 = np.sin(np.arange(1000000, dtype=np.float32)).reshape(1000, 1000)
    z2 = (r2 + 1j * r2.T).astype(np.complex64)
    g = np.random.default_rng(0).standard_normal((512, 512))
    spd = g @ g.T + 512 * np.eye(512)
    rhs = np.ones(512)
    return [
        ("EagerAdd4", "eager x + x, 4 elements", lambda: tiny + tiny, 0, None),
        ("EagerAddScalar4", "eager r + 1, 4 elements", lambda: tiny + 1, 0, None),
        ("EagerSin4", "eager jnp.sin, 4 elements", lambda: np.sin(tiny), 0, None),
        ("JnpAddFloat32_16M", "add 16M", lambda: np.add(x, y), 3 * 4 * N, "triad"),
        ("JnpSinFloat32_16M", "sin 16M", lambda: np.sin(xs), 2 * 4 * N, "triad"),
        ("JnpExpFloat32_16M", "exp 16M", lambda: np.exp(xe), 2 * 4 * N, "triad"),
        ("JnpTanhFloat32_16M", "tanh 16M", lambda: np.tanh(xe), 2 * 4 * N, "triad"),
        ("JnpLogFloat32_16M", "log 16M", lambda: np.log(xl), 2 * 4 * N, "triad"),
        ("JitSinFloat32_16M", "jit sin 16M", lambda: np.sin(xs), 2 * 4 * N, "triad"),
        ("JitExpFloat32_16M", "jit exp 16M", lambda: np.exp(xe), 2 * 4 * N, "triad"),
        ("JitTanhFloat32_16M", "jit tanh 16M", lambda: np.tanh(xe), 2 * 4 * N, "triad"),
        ("JitLogFloat32_16M", "jit log 16M", lambda: np.log(xl), 2 * 4 * N, "triad"),
        ("JnpSumFloat32_16M", "sum 16M", lambda: np.sum(xs), 4 * N, "read"),
        ("JnpCumsumFloat32_16M", "cumsum 16M", lambda: np.cumsum(u16), 2 * 4 * N, "triad"),
        ("JnpArgmaxFloat32_16M", "argmax 16M", lambda: np.argmax(u16), 4 * N, "read"),
        ("JnpSortFloat32_1M", "sort 1M", lambda: np.sort(u1), 0, None),
        ("JnpTakeFloat32_1Mof16M", "take 1M of 16M", lambda: np.take(u16, idx), 0, None),
        ("JnpTransposeFloat32_4096", "eager transpose 4096^2", lambda: np.ascontiguousarray(sq.T), 2 * 4 * N, "triad"),
        ("JitTransposeFloat32_4096", "jit(lambda a: a.T) 4096^2", lambda: np.ascontiguousarray(sq.T), 2 * 4 * N, "triad"),
        # NumPy computes sq.T * 2 + 1 in the operand's (column-major) order and
        # returns that layout; the copy gives the row-major result jaxsh returns.
        ("JitTransposeAddFloat32_4096", "jit(lambda a: a.T*2 + 1) 4096^2", lambda: np.ascontiguousarray(sq.T * np.float32(2) + np.float32(1)), 2 * 4 * N, "triad"),
        ("JnpMatmulFloat32_64", "matmul 64^2", lambda: m64[0] @ m64[1], 2 * 64 ** 3, "fma"),
        ("JnpMatmulFloat32_512", "matmul 512^2", lambda: m512[0] @ m512[1], 2 * 512 ** 3, "fma"),
        ("JnpMatmulFloat32_1024", "matmul 1024^2", lambda: m1k[0] @ m1k[1], 2 * 1024 ** 3, "fma"),
        ("JnpMatmulFloat32_2048", "matmul 2048^2", lambda: m2k[0] @ m2k[1], 2 * 2048 ** 3, "fma"),
        ("JnpBatchedMatmulFloat32_256x64", "matmul 256 x 64^2", lambda: bat[0] @ bat[1], 2 * 256 * 64 ** 3, "fma"),
        ("JnpMatvecFloat32_4096", "matrix-vector 4096^2", lambda: sq @ vec, 4 * N, "read"),
        ("JitWellFused8M", "jit f_well_fused 8M x 2", lambda: f_well_fused(x8), 2 * x8.nbytes, "triad"),
        ("JitChain6Float32_16M", "jit 6-op elementwise chain 16M", lambda: chain6(u16, v16), 3 * 4 * N, "triad"),
        ("JitChain6Float32_16MPortable", "same, JAXSH_CPU_CODEGEN=0", lambda: chain6(u16, v16), 3 * 4 * N, "triad"),
        ("JitSumKeepdims8M", "jit x*2 + sum(keepdims) 8M x 2", lambda: f_sum(x8), 2 * x8.nbytes, "triad"),
        # NumPy 1.24's pocketfft computes complex64 in complex128.
        ("JnpFFTComplex64_1M", "fft complex64 1M", lambda: np.fft.fft(z1m), 5 * M * 20, "flops"),
        ("JnpFFT2Complex64_1000", "fft2 complex64 1000^2", lambda: np.fft.fft2(z2), 5 * 10**6 * 20, "flops"),
        ("JnpSolveFloat64_512", "solve float64 512", lambda: np.linalg.solve(spd, rhs), 2 * 512 ** 3 // 3, "flops"),
        ("JnpCholeskyFloat64_512", "cholesky float64 512", lambda: np.linalg.cholesky(spd), 512 ** 3 // 3, "flops"),
        ("JnpSvdFloat64_512", "svd float64 512", lambda: np.linalg.svd(spd), 0, None),
        ("JnpEighFloat64_512", "eigh float64 512", lambda: np.linalg.eigh(spd), 0, None),
    ]


BENCH_LINE = re.compile(r"Benchmark(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)")


def run_go(pkg, pattern, count, benchtime="3x"):
    proc = subprocess.run(
        ["go", "test", "-run=NONE", f"-bench={pattern}", f"-benchtime={benchtime}", f"-count={count}", pkg],
        capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"warning: go test {pkg} failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}", file=sys.stderr)
    results = {}
    for line in proc.stdout.splitlines():
        m = BENCH_LINE.match(line)
        if not m:
            continue
        metrics = {"ns/op": float(m.group(2))}
        for value, unit in re.findall(r"([\d.]+) (\S+)", m.group(3)):
            metrics[unit] = float(value)
        results.setdefault(m.group(1), []).append(metrics)
    return results


def merge(into, new):
    for k, v in new.items():
        into.setdefault(k, []).extend(v)


def med(results, name, unit="ns/op"):
    vals = [r[unit] for r in results.get(name, []) if unit in r]
    return statistics.median(vals) if vals else None


def blas_note():
    """The BLAS and LAPACK libraries this process really loaded.

    NumPy's build info names only what it was linked against ("blas"); on
    Debian that name is an alternative that may resolve to the reference
    BLAS or to OpenBLAS, which differ tenfold in matmul and linalg speed.
    The resolved paths in /proc/self/maps say which one the NumPy column used.
    """
    np.dot(np.ones((2, 2)), np.ones((2, 2)))  # make sure BLAS is loaded
    np.linalg.solve(np.eye(2), np.ones(2))   # and LAPACK
    loaded = set()
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1]
                base = os.path.basename(path)
                if path.startswith("/") and ("blas" in base or "lapack" in base):
                    loaded.add(os.path.realpath(path))
    except OSError:
        pass
    if loaded:
        return ", ".join(sorted(loaded))
    try:
        cfg = np.__config__.get_info("blas_opt_info")  # NumPy < 1.26
        libs = cfg.get("libraries", [])
    except Exception:  # newer NumPy: show_config's text
        libs = []
    return ", ".join(libs) if libs else "see numpy.show_config()"


def main():
    count = int(sys.argv[sys.argv.index("-count") + 1]) if "-count" in sys.argv else 1
    rounds = int(sys.argv[sys.argv.index("-rounds") + 1]) if "-rounds" in sys.argv else 3
    cases = numpy_cases()
    only = sys.argv[sys.argv.index("-only") + 1] if "-only" in sys.argv else None
    if only:
        cases = [c for c in cases if re.search(only, c[0])]
    names = "|".join(name for name, *_ in cases if name not in LATENCY_ROWS)
    # JitDispatch4 has no NumPy row: it is printed below the table.
    latency = sorted({name for name, *_ in cases if name in LATENCY_ROWS} | {"JitDispatch4"})
    numpy_times = {}
    go = {}
    for _ in range(rounds):
        for name, _, fn, _, _ in cases:
            timer = loop_time if name in LATENCY_ROWS else median_time
            numpy_times.setdefault(name, []).append(timer(fn))
        merge(go, run_go("./bench/machine/", ".", count, "10x"))
        if names:
            merge(go, run_go("./bench/", f"^Benchmark({names})$", count))
        merge(go, run_go("./bench/", f"^Benchmark({'|'.join(latency)})$", count, LATENCY_BENCHTIME))
    if not only:
        merge(go, run_go("./jit/", "CompileAllIntermediates", 1, "2x"))

    peak = med(go, "PeakFMA", "GFLOP/s") * 1e9
    read_bw = med(go, "ReadBandwidth", "GB/s") * 1e9
    triad_bw = med(go, "TriadBandwidth", "GB/s") * 1e9
    bounds = {"fma": peak, "read": read_bw, "triad": triad_bw}
    print(f"NumPy {np.__version__} (BLAS: {blas_note()}); medians of {rounds} rounds")
    print(f"machine, this run: FMA peak {peak / 1e9:.0f} GFLOP/s, read {read_bw / 1e9:.1f} GB/s, "
          f"triad {triad_bw / 1e9:.1f} GB/s (bench/machine, every core)")
    print()
    print(f"| {'op (float32)':32} | {'NumPy':>10} | {'jaxsh':>10} | {'NumPy/jaxsh':>11} | {'jaxsh vs the machine':34} |")
    print(f"|{'-' * 34}|{'-' * 12}|{'-' * 12}|{'-' * 13}|{'-' * 36}|")
    for name, label, _, work, kind in cases:
        nt = statistics.median(numpy_times[name])
        gt = med(go, name)
        if gt is None:
            print(f"| {label:32} | {fmt_time(nt):>10} | {'missing':>10} | {'':>11} | {'':34} |")
            continue
        gt *= 1e-9
        if kind == "fma":
            rate = f"{work / gt / 1e9:.0f} GFLOP/s, {work / gt / peak:.0%} of FMA peak"
        elif kind == "flops":  # no single bound: float64, or FFT's mix of work
            rate = f"{work / gt / 1e9:.1f} GFLOP/s"
        elif kind in ("read", "triad"):
            rate = f"{work / gt / 1e9:.1f} GB/s, {work / gt / bounds[kind]:.0%} of {kind}"
        else:
            rate = ""
        print(f"| {label:32} | {fmt_time(nt):>10} | {fmt_time(gt):>10} | {nt / gt:11.2f} | {rate:34} |")
    d = med(go, "JitDispatch4")
    if d is not None:
        print(f"\njit dispatch of a 4-element call from a Starlark loop: {d / 1e3:.2f} us")
    scaling = [(int(k.split("/")[1]), med(go, k, "ns/eqn")) for k in go if k.startswith("CompileAllIntermediates/")]
    if scaling:
        print("compile of a function returning all N intermediates, time per equation: " +
              ", ".join(f"N={n}: {v / 1e3:.0f} us" for n, v in sorted(scaling)))


def fmt_time(t):
    if t < 1e-3:
        return f"{t * 1e6:.2f} us"
    return f"{t * 1e3:.2f} ms"


if __name__ == "__main__":
    main()
