# Generates fft_numpy.json: NumPy 1.24's FFTs (computed in float64) of a
# fixed input for every length the accuracy test covers. Run once with
#   python3 gen_fft.py > fft_numpy.json
# The input is x[j] = (((7919 j + 13) mod 1009) - 504)/1024 + i·(((104729 j + 7)
# mod 1013) - 506)/1024: exact in float32, so one reference serves
# complex64 and complex128. Lengths up to 4096 keep every output; longer
# ones keep 256 outputs at indices (i·n)//256 + i%7 and the output's L2
# norm.
import json
import numpy as np

LENGTHS = list(range(1, 65)) + [97, 100, 128, 1000, 4096, 8191, 1 << 20]


def signal(n):
    j = np.arange(n, dtype=np.int64)
    re = (((7919 * j + 13) % 1009) - 504) / 1024.0
    im = (((104729 * j + 7) % 1013) - 506) / 1024.0
    return re + 1j * im


def enc(a):
    a = np.asarray(a)
    if np.iscomplexobj(a):
        return [v for z in a for v in (float(z.real), float(z.imag))]
    return [float(v) for v in a]


cases = []
for n in LENGTHS:
    x = signal(n)
    h = n // 2 + 1
    outs = {
        "FFT": np.fft.fft(x),
        "IFFT": np.fft.ifft(x),
        "RFFT": np.fft.rfft(x.real),
        "IRFFT": np.fft.irfft(x[:h], n),
    }
    for kind, y in outs.items():
        case = {"type": kind, "n": n, "norm": float(np.linalg.norm(y)), "size": len(y)}
        if n <= 4096:
            case["out"] = enc(y)
        else:
            idx = [(i * len(y)) // 256 + i % 7 for i in range(256)]
            case["index"] = idx
            case["out"] = enc(y[idx])
        cases.append(case)

# Several axes at once, batched: shape (3, 5, 6) and (2, 4, 6, 7), the
# trailing 1, 2 or 3 axes transformed; the input is signal(size) reshaped.
nd = []
for shape in [(3, 5, 6), (2, 4, 6, 7)]:
    size = int(np.prod(shape))
    x = signal(size).reshape(shape)
    for k in (1, 2, 3):
        axes = tuple(range(len(shape) - k, len(shape)))
        half = x[..., : shape[-1] // 2 + 1]
        outs = {
            "FFT": np.fft.fftn(x, axes=axes),
            "IFFT": np.fft.ifftn(x, axes=axes),
            "RFFT": np.fft.rfftn(x.real, axes=axes),
            "IRFFT": np.fft.irfftn(half, s=shape[-k:], axes=axes),
        }
        for kind, y in outs.items():
            nd.append({"type": kind, "shape": list(shape), "lengths": list(shape[-k:]),
                       "out_shape": list(y.shape), "out": enc(y.ravel())})

print(json.dumps({"numpy": np.__version__, "cases": cases, "nd": nd}, separators=(",", ":")))
