package vmath

import (
	"math/big"

	"github.com/jaxsh/jaxsh/cpu/vmath/internal/bigpi"
)

// exactReduce computes t = x/π − (½ if half) with 400-bit π and returns
// round(t) mod 2 and t − round(t).
func exactReduce(x float64, half bool) (uint64, float64) {
	const prec = 400
	t := new(big.Float).SetPrec(prec).SetFloat64(x)
	t.Quo(t, bigpi.Float(prec))
	if half {
		t.Sub(t, big.NewFloat(0.5))
	}
	floor, _ := new(big.Float).SetPrec(prec).Add(t, big.NewFloat(0.5)).Int(nil) // truncates toward 0; t > 0 here
	rounded := new(big.Float).SetPrec(prec).SetInt(floor)
	f, _ := new(big.Float).SetPrec(prec).Sub(t, rounded).Float64()
	return uint64(floor.Bit(0)), f
}
