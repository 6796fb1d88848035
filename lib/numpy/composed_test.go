package numpy_test

import (
	"testing"

	"github.com/jaxsh/jaxsh/internal/casetest"
)

// TestComposedAgainstNumPy checks the jnp, nn and lax functions composed in
// the dialect against NumPy's values (testdata/gen_composed.py).
func TestComposedAgainstNumPy(t *testing.T) {
	casetest.Run(t, "testdata/composed_cases.json")
}
