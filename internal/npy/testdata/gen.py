# Regenerates the .npy/.npz files the tests read, with NumPy (run once; the
# tests never need Python): /usr/bin/python3 gen.py
import numpy as np
rng = np.random.default_rng(7)
cases = {
  "bool": np.array([[True, False, True], [False, False, True]]),
  "int8": np.array([-128, -1, 0, 1, 127], dtype=np.int8),
  "int16": np.arange(-6, 6, dtype=np.int16).reshape(3, 4) * 1000,
  "int32": np.array([[-2147483648, 2147483647], [0, -7]], dtype=np.int32),
  "int64": np.array([-(2**63), 2**63 - 1, 12345678901234], dtype=np.int64),
  "uint8": np.arange(0, 256, 51, dtype=np.uint8),
  "uint16": np.array([0, 1, 65535], dtype=np.uint16),
  "uint32": np.array([[0, 4294967295]], dtype=np.uint32),
  "uint64": np.array([0, 2**64 - 1], dtype=np.uint64),
  "float16": np.array([0.0, -0.0, 1.5, 65504, np.inf, -np.inf, np.nan, 6e-8], dtype=np.float16),
  "float32": rng.standard_normal((2, 3, 4)).astype(np.float32),
  "float64": np.array([np.pi, -0.0, np.inf, np.nan, 5e-324, 1.7976931348623157e308]),
  "complex64": (rng.standard_normal(5) + 1j * rng.standard_normal(5)).astype(np.complex64),
  "complex128": np.array([1 + 2j, -0.0 - 1j, np.inf + 0j]),
  "scalar": np.array(3.5, dtype=np.float32),
  "empty": np.zeros((0, 3), dtype=np.int32),
}
for name, a in cases.items():
    np.save(name + ".npy", a)
# Other layouts and byte orders, which loading must turn into C order, little-endian.
np.save("fortran.npy", np.asfortranarray(np.arange(24, dtype=np.float64).reshape(2, 3, 4)))
np.save("bigendian.npy", np.arange(6, dtype=">i4").reshape(2, 3))
np.save("bigendian_c128.npy", np.array([1 + 2j, 3 - 4j], dtype=">c16"))
with open("v2.npy", "wb") as f:
    np.lib.format.write_array(f, np.arange(5, dtype=np.int16), version=(2, 0))
with open("v3.npy", "wb") as f:
    np.lib.format.write_array(f, np.arange(5, dtype=np.float32), version=(3, 0))
# bfloat16 as JAX saves it: ml_dtypes' bfloat16 has no type code, so np.save
# writes two-byte void '<V2'. Bits of 1.0, -2.0, 0.5, 3.140625.
bf = np.array([0x3F80, 0xC000, 0x3F00, 0x4049], dtype=np.uint16)
with open("bfloat16.npy", "wb") as f:
    np.lib.format.write_array_header_1_0(f, {"descr": "<V2", "fortran_order": False, "shape": (4,)})
    f.write(bf.tobytes())
np.savez("arrays.npz", a=np.arange(3, dtype=np.int32), b=np.eye(2))
np.savez_compressed("compressed.npz", x=np.linspace(0, 1, 5), y=np.array([True, False]))
