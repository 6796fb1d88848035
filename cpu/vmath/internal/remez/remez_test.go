package remez

import (
	"math"
	"testing"
)

// TestFitEquioscillates fits exp on [−1, 1] with a quintic and checks the
// error is near the minimax level, about 2^-14.4 (e^ξ/(2^5·6!)) and that the
// weighted error attains it with alternating signs at 7 points.
func TestFitEquioscillates(t *testing.T) {
	p := Problem{G: math.Exp, W: func(float64) float64 { return 1 }, Powers: []int{0, 1, 2, 3, 4, 5}, Lo: -1, Hi: 1}
	r, err := Fit(p)
	if err != nil {
		t.Fatal(err)
	}
	if e := math.Log2(r.MaxErr); e > -14 || e < -15 {
		t.Errorf("max error 2^%.2f, want about 2^-14.4", e)
	}
	// Count sign alternations among near-maximal errors on a fine grid.
	alternations, lastSign := 0, 0.0
	for i := 0; i <= 100000; i++ {
		x := -1 + 2*float64(i)/100000
		e := p.G(x) - Eval(p.Powers, r.Coeffs, x)
		if math.Abs(e) > 0.99*r.MaxErr && math.Copysign(1, e) != lastSign {
			alternations++
			lastSign = math.Copysign(1, e)
		}
	}
	if alternations != len(p.Powers)+1 {
		t.Errorf("%d alternations, want %d", alternations, len(p.Powers)+1)
	}
}
