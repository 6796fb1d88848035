package jaxnames

import "testing"

func TestHas(t *testing.T) {
	for _, c := range []struct {
		module, name string
		want         bool
	}{
		{"jax", "numpy", true},
		{"jax", "scipy", true},
		{"jax.scipy", "signal", true},
		{"jax.scipy.signal", "convolve", true},
		{"jax.numpy", "linalg", true},
		{"jax.numpy", "unique", true},
		{"jax.numpy", "nope", false},
		{"jax.nope", "x", false},
	} {
		if got := Has(c.module, c.name); got != c.want {
			t.Errorf("Has(%q, %q) = %v, want %v", c.module, c.name, got, c.want)
		}
	}
	if !IsModule("jax.scipy.signal") || IsModule("jax.jit") {
		t.Error("IsModule")
	}
}
