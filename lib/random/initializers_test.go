package random_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/jaxsh/jaxsh/lib/nn"
	"github.com/jaxsh/jaxsh/lib/numpy"
	"github.com/jaxsh/jaxsh/lib/random"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// TestInitializersDocumentedValues checks nn.initializers against the
// weights JAX's docstrings print (jax/_src/nn/initializers.py, each for
// jax.random.key(42), shape (2, 3), float32, computed with the original
// threefry scheme), eagerly and under jit. The scalings are closed-form
// over jax.random's draws: those over uniform draws agree to the last bit
// printed; those over normal draws within a relative 1e-6 (up to 16 float32 ulps), the erf_inv
// kernel's rounding against the XLA of 2022 that printed them (lib/random's
// doc comment); orthogonal also goes through a QR decomposition, whose
// rounding differs from LAPACK's in the last bits.
func TestInitializersDocumentedValues(t *testing.T) {
	random.UseOriginalScheme(t)
	for _, tc := range []struct {
		init       string
		want       []float64
		rtol, atol float64
	}{
		{"uniform(10.0)", []float64{7.298188, 8.691938, 8.7230015, 2.0818567, 1.8662417, 5.5022564}, 6e-8, 0},
		{"normal(5.0)", []float64{3.0613258, 5.6129413, 5.6866574, -4.063663, -4.4520254, 0.63115686}, 1e-6, 0},
		{"truncated_normal(5.0)", []float64{2.9047365, 5.2338114, 5.29852, -3.836303, -4.192359, 0.6022964}, 1e-6, 0},
		{"glorot_uniform()", []float64{0.50350785, 0.8088631, 0.81566876, -0.6393332, -0.6865721, 0.11003882}, 6e-8, 0},
		{"glorot_normal()", []float64{0.41770416, 0.75262755, 0.7619329, -0.5516644, -0.6028657, 0.08661086}, 1e-6, 0},
		{"lecun_uniform()", []float64{0.56293887, 0.90433645, 0.9119454, -0.71479625, -0.7676109, 0.12302713}, 6e-8, 0},
		{"lecun_normal()", []float64{0.46700746, 0.8414632, 0.8518669, -0.61677957, -0.67402434, 0.09683388}, 1e-6, 0},
		{"he_uniform()", []float64{0.79611576, 1.2789248, 1.2896855, -1.0108745, -1.0855657, 0.17398663}, 6e-8, 0},
		{"he_normal()", []float64{0.6604483, 1.1900088, 1.2047218, -0.87225807, -0.95321447, 0.1369438}, 1e-6, 0},
		{"orthogonal()", []float64{3.9026976e-01, 7.2495741e-01, -5.6756169e-01, 8.8047469e-01, -4.7409311e-01, -1.3157725e-04}, 2e-6, 1e-6},
	} {
		for _, jitted := range []bool{false, true} {
			src := "out = nn.initializers." + tc.init + "(random.key(42), (2, 3), jnp.float32)\n"
			if jitted {
				src = "init = nn.initializers." + tc.init + "\nout = jit(lambda k: init(k, (2, 3), jnp.float32))(random.key(42))\n"
			}
			session := jstarlark.NewSession(&bytes.Buffer{}, starlark.StringDict{"jnp": numpy.Module, "random": random.Module, "nn": nn.Module})
			g, err := session.ExecFile(session.NewThread(tc.init), "init.star", src)
			if err != nil {
				t.Errorf("%s: %s", tc.init, jstarlark.FormatError(err))
				continue
			}
			v, err := g["out"].(*jstarlark.Array).ToList()
			if err != nil {
				t.Fatal(err)
			}
			l := v.(*starlark.List)
			var got []float64
			for i := 0; i < l.Len(); i++ {
				row := l.Index(i).(*starlark.List)
				for j := 0; j < row.Len(); j++ {
					got = append(got, float64(row.Index(j).(starlark.Float)))
				}
			}
			for i, w := range tc.want {
				// The docstrings print float32 values to their shortest
				// round-trip digits: 6e-8 is half a float32 ulp.
				if d := math.Abs(got[i] - w); d > tc.rtol*math.Abs(w)+tc.atol {
					t.Errorf("%s (jit=%v)[%d] = %v, want %v", tc.init, jitted, i, got[i], w)
				}
			}
		}
	}
}
