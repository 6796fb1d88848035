package scipy_test

import (
	"testing"

	"github.com/jaxsh/jaxsh/internal/casetest"
)

// TestAgainstSciPy checks scipy.special and scipy.stats against SciPy's
// values (testdata/gen_scipy.py), eagerly and under jit.
func TestAgainstSciPy(t *testing.T) {
	casetest.Run(t, "testdata/scipy_cases.json")
}
