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

func TestPublicListsAreComplete(t *testing.T) {
	for module, want := range map[string]int{"jax.numpy": 417, "jax.numpy.linalg": 31,
		"jax.numpy.fft": 18, "jax.nn": 36, "jax.lax": 218, "jax.random": 47, "jax.nn.initializers": 20} {
		if got := len(Public(module)); got != want {
			t.Errorf("%s: %d public names, want %d", module, got, want)
		}
	}
	for _, n := range []struct{ module, name string }{
		{"jax.numpy", "mgrid"}, {"jax.numpy", "float8_e4m3b11fnuz"}, {"jax.lax", "rng_bit_generator"},
		{"jax.nn", "log1mexp"}, {"jax.random", "key_dtype"},
	} {
		if !Has(n.module, n.name) {
			t.Errorf("Has(%q, %q) = false", n.module, n.name)
		}
	}
}
