// Package bigpi computes π to arbitrary precision, for cpu/vmath's
// coefficient generator and tests.
package bigpi

import "math/big"

// Fixed returns floor(π·2^bits), by Machin's formula
// π = 16·atan(1/5) − 4·atan(1/239) in big.Int fixed point.
func Fixed(bits uint) *big.Int {
	const guard = 16
	one := new(big.Int).Lsh(big.NewInt(1), bits+guard)
	atanInv := func(n int64) *big.Int {
		// atan(1/n) = Σ (−1)^k / ((2k+1)·n^(2k+1)).
		sum := new(big.Int)
		term := new(big.Int).Div(one, big.NewInt(n))
		n2 := big.NewInt(n * n)
		for k := int64(0); term.Sign() != 0; k++ {
			t := new(big.Int).Div(term, big.NewInt(2*k+1))
			if k%2 == 0 {
				sum.Add(sum, t)
			} else {
				sum.Sub(sum, t)
			}
			term.Div(term, n2)
		}
		return sum
	}
	pi := new(big.Int).Mul(atanInv(5), big.NewInt(16))
	pi.Sub(pi, new(big.Int).Mul(atanInv(239), big.NewInt(4)))
	return pi.Rsh(pi, guard)
}

// Float returns π as a big.Float with prec bits of precision.
func Float(prec uint) *big.Float {
	f := new(big.Float).SetPrec(prec).SetInt(Fixed(prec + 8))
	return f.SetMantExp(f, -int(prec+8))
}
