package vmath

import "math"

// TrigConstants are the constants of Sin's and Cos's vector path
// (sinLanes, cosLanes) for |x| ≤ TrigFastMax, for a code generator that
// must compute the same bits with the same operations: f64 x·InvPi1,
// shifted = that + RoundShift, f = (x·InvPi1 − (shifted − RoundShift)) +
// x·InvPi2, then f·(P[0] + s·(P[1] + s·(P[2] + s·(P[3] + s·P[4])))) with
// s = f·f, rounded to float32, its sign flipped by the low bit of
// shifted's bits (cos: hi − ½ before the shift, f from hi − (n + ½), and
// the opposite flip). Larger |x| and NaN take another path.
type TrigConstants struct {
	InvPi1, InvPi2, RoundShift float64
	SinPi                      [5]float64
	FastMax                    float32
}

// SinCosConstants returns the constants of Sin's and Cos's vector path.
func SinCosConstants() TrigConstants {
	return TrigConstants{InvPi1: invPi1, InvPi2: invPi2, RoundShift: roundShift, SinPi: sinPiPoly, FastMax: trigFastMax}
}

// ExpConstants are the constants of Exp's vector path (expLanes) for
// |x| ≤ FastMax: in float64, shifted = x·ToSteps + RoundShift, n =
// shifted − RoundShift, scale = the bits of Table[low 5 bits of shifted]
// plus shifted's bits << 47, r = x − n·StepLn, and the result scale ·
// ((1 + r) + (r·r)·(Poly[0] + r·Poly[1])) rounded to float32. Other x
// (and NaN) take another path.
type ExpConstants struct {
	ToSteps, StepLn, RoundShift float64
	Poly                        [2]float64
	Table                       [expTableSize]uint64
	FastMax                     float32
}

// ExpVectorConstants returns the constants of Exp's vector path.
func ExpVectorConstants() ExpConstants {
	return ExpConstants{ToSteps: expTableSize / math.Ln2, StepLn: math.Ln2 / expTableSize, RoundShift: roundShift,
		Poly: expPoly, Table: expScaleTable, FastMax: expFastMax}
}

// Expm1Poly returns the coefficients of expm1Reduced: for |r| ≤ ln2/64,
// expm1(r) ≈ r + (r·r)·(P[0] + r·(P[1] + r·P[2])). Expm1 (with e =
// scale·expm1(r) + (scale − 1), the sign of x restored), Tanh (the same
// on 2x, then e/(e+2)) and Sinh (on |x|, then ½(e + e/(e+1))) build on it
// with ExpConstants' reduction.
func Expm1Poly() [3]float64 { return expm1Poly }

// TanhFastLimit bounds |x| on Tanh's computed path; beyond it the result
// is ±1 (NaN stays NaN).
const TanhFastLimit = tanhFastLimit

// LogConstants are the constants of the log family for a code generator.
// For a positive finite float64 x with bits b: tmp = b − Offset, cell =
// (tmp >> (52 − TableBits)) mod 2^TableBits, k = float64(int64(tmp) >>
// 52), z = the float64 with bits b − (tmp & (0xfff << 52)), r =
// z·InvC[cell] − 1, and log x = k·ln2 + (LogC[cell] + (r + (r·r)·(Poly[0]
// + r·Poly[1]))). Log32 computes exactly this on float64(x) for every
// positive finite float32 x, subnormals included.
type LogConstants struct {
	Offset     uint64
	TableBits  uint
	InvC, LogC [logTableSize]float64
	Poly       [2]float64
	// PrecisePoly is Pow's polynomial: r + (r·r)·((P[0] + r·P[1]) +
	// (r·r)·P[2]) in place of the above.
	PrecisePoly [3]float64
}

// LogVectorConstants returns the log family's constants.
func LogVectorConstants() LogConstants {
	k := LogConstants{Offset: logOffset, TableBits: logTableBits, Poly: logPoly, PrecisePoly: logPrecisePoly}
	for i, c := range logTable {
		k.InvC[i], k.LogC[i] = c.invC, c.logC
	}
	return k
}

// Log1pFastMax bounds the positive side of Log1p's polynomial path: there
// u = 1 + x, c = (x − (u − 1))·(2 − u), and log1p x = k·ln2 + logZ(u) + c
// with u's log parts, x's sign restored. Above it (finite) log1p x is
// log x.
const Log1pFastMax = log1pFastMax

// TanConstants are the constants of Tan's path for |x| ≤ FastMax: hi =
// x·TwoOverPi1, shifted = hi + RoundShift, f = (hi − (shifted −
// RoundShift)) + x·TwoOverPi2, s = f·f, sin = f·(S[0] + s·(S[1] + …
// s·S[4])), cos = C[0] + s·(C[1] + … s·C[4]), and the result sin/cos when
// shifted's low bit is 0, (−cos)/sin when it is 1.
type TanConstants struct {
	TwoOverPi1, TwoOverPi2 float64
	Sin, Cos               [5]float64
}

// TanVectorConstants returns Tan's constants.
func TanVectorConstants() TanConstants {
	return TanConstants{TwoOverPi1: twoOverPi1, TwoOverPi2: twoOverPi2, Sin: tanSinPoly, Cos: tanCosPoly}
}

// AtanPoly returns atanTail's coefficients: with z = t·t and z2 = z·z,
// even = P[0] + z2·(P[2] + z2·(P[4] + z2·(P[6] + z2·P[8]))), odd the same
// on the odd coefficients, and atan t = t + (t·z)·(even + z·odd).
func AtanPoly() [10]float64 { return atanPoly }

// ErfConstants are Erf's: for the float32 bits b of x, a = the float32
// with bits min(b & 0x7fffffff, ClampBits) widened, cell c =
// Cells[int(a·CellsPerUnit)], t = a − c[0], p = c[1] + t·(c[2] + … +
// t·c[7]), and the result float32(p) with x's sign bit or-ed in.
type ErfConstants struct {
	Cells        [32][8]float64
	ClampBits    uint32
	CellsPerUnit float64
}

// ErfVectorConstants returns Erf's constants.
func ErfVectorConstants() ErfConstants {
	return ErfConstants{Cells: erfCells, ClampBits: erfClampBits, CellsPerUnit: erfCellsPerUnit}
}

// AsinPoly returns asinReduced's coefficients: for |s| ≤ ½ and z = s·s,
// asin s = s + (s·z)·(P[0] + z·(P[1] + … + z·P[5])). Asin and Acos use it
// on s = |x| (z = x·x) up to ½ and on s = √z, z = (1 − |x|)·½ above.
func AsinPoly() [6]float64 { return asinPoly }
