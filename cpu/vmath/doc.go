// Package vmath is the float32 math library of the CPU backend's fused
// elementwise kernels (DESIGN.md decision 7): transcendental functions over
// cache-sized blocks of float32, in Go with no dependencies beyond the
// standard library: portable kernels for every function, and vector
// kernels for a few, which compute the very same bits.
//
// # API
//
// Each function has a slice form that fills dst from x,
//
//	Exp, Exp2, Expm1, Log, Log2, Log10, Log1p,
//	Sin, Cos, Tan, Asin, Acos, Atan,
//	Sinh, Cosh, Tanh, Asinh, Acosh, Atanh,
//	Erf, Sqrt, Cbrt                          func(dst, x []float32)
//	Atan2                                    func(dst, y, x []float32)
//	Pow                                      func(dst, x, y []float32)
//
// and a scalar form named with a 32 suffix (Exp32, Log1p32, …; an
// underscore separates a trailing digit: Exp2_32, Log10_32, Atan2_32).
// The slices must have equal lengths (else the call panics). dst may be the
// same slice as an input, for in-place use, but must not otherwise overlap
// one. The two forms give bit-identical results.
//
// # Accuracy
//
// The largest error measured is 0.615 ulp (sin, cos; correct rounding
// would be 0.5), and most functions stay within 0.51. Special values follow C99 Annex F, as NumPy does: signed
// zeros (sin(−0) = −0, expm1(−0) = −0, …), ±Inf and NaN, subnormal inputs
// and results, overflow to ±Inf and underflow to 0, log of negatives NaN
// and of ±0 −Inf, atan2's quadrants and zeros, pow's special cases
// (pow(x, ±0) = 1 even for NaN x, pow(1, y) = 1 even for NaN y,
// pow(−8, 1/3) = NaN, pow(−2, 3) = −8, …). Sin, cos and tan reduce any
// finite argument correctly, up to float32's largest (Payne–Hanek).
//
// Max error measured by the tests against float64 references from package
// math, over every 1024th float32 bit pattern (all signs, exponents,
// subnormals, specials) plus dense sets near reduction boundaries (pow and
// atan2: the cross product of 2048 bit patterns per operand plus dense
// ordinary ranges), and speed from BenchmarkFunctions: 64K-element slices,
// one goroutine, medians of -count 10 -benchtime 100ms on the development
// machine (2.3 GHz Xeon, two cores shared with other work, so ±15%),
// against a naive loop calling package math's float64 function per
// element:
//
//	function  max ulp  Melem/s  naive  ratio     function  max ulp  Melem/s  naive  ratio
//	exp       0.502     401     162    2.5×      sinh      0.500     229      27    8.5×
//	exp2      0.502     378      28   13×        cosh      0.502     309      30   10×
//	expm1     0.500     284      26   11×        tanh      0.500     237      30    8.0×
//	log       0.536     379     132    2.9×      asinh     0.538     140      22    6.4×
//	log2      0.534     378      33   11×        acosh     0.500     179      27    6.6×
//	log10     0.538     382     136    2.8×      atanh     0.535     183      22    8.4×
//	log1p     0.538     242      33    7.3×      asin      0.504     186      29    6.3×
//	sin       0.615     326      34    9.5×      acos      0.504     150      29    5.2×
//	cos       0.615     285      36    7.9×      atan      0.507     135      38    3.6×
//	tan       0.501     182      33    5.5×      atan2     0.504      88      27    3.3×
//	erf       0.501     249      19   13×        pow       0.502      66      13    5.1×
//	sqrt      0.500    1214    1182    1.0×      cbrt      0.500     179      26    7.0×
//
// (Package math has assembly exp and log on amd64, hence their faster naive
// loops; sqrt is one instruction either way.)
//
// 0.5 is correct rounding; the excess is the kernels' own error. Sin and
// cos trade 0.12 ulp for speed (a degree-9 polynomial, where degree 11
// would give 0.50); the log family's cubic costs up to 0.04. The figures
// for exp, exp2, expm1, log, log2, log10, log1p, sin, cos, tan, tanh, atan,
// asinh and erf come from exhaustive runs over all 2^32 inputs
// (TestExhaustive, opt-in), which agreed with the sweeps to 0.02 ulp; the
// rest from the sweeps.
//
// # How
//
// Every kernel widens to float64, reduces the argument without branches,
// evaluates a short minimax polynomial and rounds once to float32. In
// float64 the kernels' error stays near 2^-30, so the final rounding is
// nearly always the correct one, and float64's range absorbs float32's
// overflow, underflow and subnormals: exp(x) for |x| < 150 needs no special
// handling at all. The slice forms check inputs a chunk of 16 at a time with
// integer SWAR tests and run a branch-free loop over runs of ordinary
// chunks; a chunk holding a special value (NaN, ±Inf, a huge trig argument,
// a zero for log, …) goes element by element through the scalar form. See
// common.go.
//
// The vector kernels perform a portable kernel's float64 operations in the
// same order on 4 or 8 elements at once, so they are bit-identical to it,
// and the portable kernels stay the reference the tests compare against:
// on amd64, sin and cos use AVX assembly (trig_asm_amd64.s) in default
// builds, about 930 and 860 Melem/s against the table's portable 326 and
// 285; GOEXPERIMENT=simd builds use archsimd kernels for exp, sin and cos
// instead (simd_amd64.go).
//
// The coefficients are derived, not copied: coeffs_gen.go is written by
// internal/cmd/gencoeffs, which fits each polynomial with a Remez exchange
// (internal/remez) against package math and computes π to 600 bits by
// Machin's formula (internal/bigpi) for the trig reductions.
// TestGeneratedCoefficients keeps the file in step with its generator.
package vmath

//go:generate go run ./internal/cmd/gencoeffs -o coeffs_gen.go
