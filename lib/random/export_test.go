package random

import "testing"

// UseOriginalScheme switches the module to JAX's original threefry scheme
// (jax_threefry_partitionable=False) for the rest of the test, for the
// external tests that quote answers JAX printed under it.
func UseOriginalScheme(t *testing.T) {
	saved := defaultPRNG
	defaultPRNG = originalScheme
	t.Cleanup(func() { defaultPRNG = saved })
}
