package random

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/jaxsh/jaxsh/lib/numpy"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// TestRandomValuesCasesOriginalScheme runs the distributions of JAX's
// tests/random_test.py _RANDOM_VALUES_CASES (threefry2x32 rows, generated
// in 32-bit mode with the original scheme and printed to six decimals) with
// the module switched to that scheme: each is the sampler of its name
// called as the test calls it, under key(adler32(name + "threefry2x32")).
func TestRandomValuesCasesOriginalScheme(t *testing.T) {
	saved := defaultPRNG
	defaultPRNG = originalScheme
	defer func() { defaultPRNG = saved }()
	for _, tc := range []struct {
		name, call string
		want       []float64
		tol        float64
	}{
		{"beta", "random.beta(key, a=0.8, b=0.9, shape=(5,), dtype=jnp.float32)", []float64{0.13259, 0.824893, 0.948363, 0.964155, 0.235448}, 1e-6},
		{"cauchy", "random.cauchy(key, shape=(5,), dtype=jnp.float32)", []float64{-0.088416, -10.169713, 3.49677, -1.18056, 0.34556}, 1.1e-4}, // JAX's rtol=1e-5 of the largest
		{"dirichlet", "random.dirichlet(key, alpha=jnp.array([0.5, 0.6, 0.7], jnp.float32), shape=(2,), dtype=jnp.float32).reshape(6)",
			[]float64{0.003128, 0.009694, 0.987178, 0.025938, 0.479091, 0.494971}, 1e-6},
		{"double_sided_maxwell", "random.double_sided_maxwell(key, loc=1, scale=2, shape=(5,), dtype=jnp.float32)", []float64{-2.408914, -3.370437, 3.235352, -0.907734, -1.708732}, 1e-6},
		{"exponential", "random.exponential(key, shape=(5,), dtype=jnp.float32)", []float64{0.526067, 0.043046, 0.039932, 0.46427, 0.123886}, 1e-6},
		{"gamma", "random.gamma(key, a=0.8, shape=(5,), dtype=jnp.float32)", []float64{0.824221, 1.724476, 0.502882, 5.386132, 0.685543}, 1e-6},
		{"laplace", "random.laplace(key, shape=(5,), dtype=jnp.float32)", []float64{0.578939, -0.204902, 0.555733, 0.911053, -0.96456}, 1e-6},
		{"loggamma", "random.loggamma(key, a=0.8, shape=(5,), dtype=jnp.float32)", []float64{0.240559, -3.575443, -0.450946, -2.161372, -2.943277}, 1e-6},
		{"logistic", "random.logistic(key, shape=(5,), dtype=jnp.float32)", []float64{0.19611, -1.709053, -0.274093, -0.208322, -1.675489}, 1e-6},
		{"maxwell", "random.maxwell(key, shape=(5,), dtype=jnp.float32)", []float64{3.070779, 0.908479, 1.521317, 0.875551, 1.306137}, 1e-6},
		{"multivariate_normal", "random.multivariate_normal(key, mean=jnp.ones((1, 3)), cov=jnp.eye(3), shape=(2,), dtype=jnp.float32).reshape(6)",
			[]float64{1.067826, 1.215599, 0.234166, -0.237534, 1.32591, 1.413987}, 1e-6},
		{"pareto", "random.pareto(key, b=0.5, shape=(5,), dtype=jnp.float32)", []float64{2.751398, 1.281863, 87.85448, 1.254542, 2.824487}, 1e-6},
		{"poisson", "random.poisson(key, lam=5, shape=(5,), dtype=jnp.int32).astype(jnp.float32)", []float64{7, 3, 6, 11, 6}, 0},
		{"rademacher", "random.rademacher(key, shape=(5,), dtype=jnp.int32).astype(jnp.float32)", []float64{-1, -1, -1, -1, 1}, 0},
		{"truncated_normal", "random.truncated_normal(key, lower=0, upper=2, shape=(5,), dtype=jnp.float32)", []float64{0.582807, 1.709771, 0.159513, 0.861376, 0.36148}, 1e-6},
		{"weibull_min", "random.weibull_min(key, scale=1, concentration=1, shape=(5,), dtype=jnp.float32)", []float64{1.605863, 0.841809, 0.224218, 0.4826, 0.027901}, 1e-6},
	} {
		for _, jitted := range []bool{false, true} {
			src := fmt.Sprintf("key = random.PRNGKey(%d)\nout = %s\n", caseSeed(tc.name), tc.call)
			if jitted {
				src = fmt.Sprintf("out = jit(lambda key: %s)(random.PRNGKey(%d))\n", tc.call, caseSeed(tc.name))
			}
			session := jstarlark.NewSession(&bytes.Buffer{}, starlark.StringDict{"jnp": numpy.Module, "random": Module})
			globals, err := session.ExecFile(session.NewThread(tc.name), tc.name+".star", src)
			if err != nil {
				t.Errorf("%s: %s", tc.name, jstarlark.FormatError(err))
				continue
			}
			what := tc.name
			if jitted {
				what += " under jit"
			}
			checkFloats(t, what, globals["out"].(*jstarlark.Array), tc.want, tc.tol)
		}
	}
}
