package vmath

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
