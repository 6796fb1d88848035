package lax_test

import (
	"testing"

	"github.com/jaxsh/jaxsh/internal/casetest"
)

// TestAgainstNumPy checks top_k, the cumulative reductions,
// associative_scan, sort, clamp and bitcast_convert_type against NumPy's
// values (testdata/gen_lax.py), eagerly and under jit.
func TestAgainstNumPy(t *testing.T) {
	casetest.Run(t, "testdata/lax_cases.json")
}

// TestSpecialAgainstSciPy checks the special functions (special.star) and
// their derivatives against SciPy's values (testdata/gen_special.py),
// eagerly and under jit.
func TestSpecialAgainstSciPy(t *testing.T) {
	casetest.Run(t, "testdata/special_cases.json")
}

// TestMoreAgainstNumPy checks the reductions, comparisons, reduce with a
// function, the constructors, dot, clz and the transposed convolutions
// against NumPy's values (testdata/gen_more.py), eagerly and under jit.
func TestMoreAgainstNumPy(t *testing.T) {
	casetest.Run(t, "testdata/more_cases.json")
}
