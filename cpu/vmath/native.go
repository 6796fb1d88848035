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
