package bigpi

import (
	"fmt"
	"math"
	"testing"
)

func TestFixed(t *testing.T) {
	// π's integer part and first 200 fraction bits, in hex, a well-known constant.
	const want = "3243f6a8885a308d313198a2e03707344a4093822299f31d008"
	if got := fmt.Sprintf("%x", Fixed(200)); got != want {
		t.Errorf("Fixed(200) = %s, want %s", got, want)
	}
	if f, _ := Float(80).Float64(); f != math.Pi {
		t.Errorf("Float(80) = %v, want %v", f, math.Pi)
	}
}
