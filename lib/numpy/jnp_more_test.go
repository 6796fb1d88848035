package numpy_test

import (
	"testing"

	"github.com/jaxsh/jaxsh/internal/casetest"
)

// TestMoreAgainstNumPy checks the functions of aliases.star, setops.star
// and polyhist.star against NumPy's values (testdata/gen_jnp_more.py).
func TestMoreAgainstNumPy(t *testing.T) {
	casetest.Run(t, "testdata/jnp_more_cases.json")
}
