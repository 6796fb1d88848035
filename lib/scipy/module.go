package scipy

import (
	_ "embed"
	"sort"
	"strings"

	"github.com/jaxsh/jaxsh/lib/lax"
	"github.com/jaxsh/jaxsh/lib/nn"
	"github.com/jaxsh/jaxsh/lib/numpy"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Module is the scipy module: scipy.special and scipy.stats.
var Module = &starlarkstruct.Module{Name: "scipy", Members: starlark.StringDict{}}

var (
	special = &starlarkstruct.Module{Name: "scipy.special", Members: starlark.StringDict{}}
	stats   = &starlarkstruct.Module{Name: "scipy.stats", Members: starlark.StringDict{}}

	//go:embed special.star
	specialSource string
	//go:embed stats.star
	statsSource string
	//go:embed core.star
	coreSource string
)

// distributions are stats.star's prefixes, multivariate_normal before any
// shorter name it could be read as.
var distributions = []string{"multivariate_normal", "multinomial", "wrapcauchy", "dirichlet", "truncnorm", "bernoulli", "vonmises", "gennorm", "pareto", "logistic", "uniform", "laplace", "poisson", "nbinom", "cauchy", "expon", "binom", "gamma", "beta", "geom", "norm", "chi2", "t"}

func init() {
	jstarlark.RegisterValue(Module, "special", special)
	jstarlark.RegisterValue(Module, "stats", stats)
	uses := starlark.StringDict{"jnp": numpy.Module, "lax": lax.Module, "nn": nn.Module, "special": special}
	jstarlark.RegisterStarlark(special, "lib/scipy/special.star", specialSource, uses)
	flat := &starlarkstruct.Module{Name: "scipy.stats", Members: starlark.StringDict{}}
	jstarlark.RegisterStarlark(flat, "lib/scipy/stats.star", statsSource, uses)
	// rankdata and sem are functions of stats itself, not of a distribution.
	jstarlark.RegisterStarlark(stats, "lib/scipy/core.star", coreSource, uses)
	names := make([]string, 0, len(flat.Members))
	for n := range flat.Members {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		dist, fn := splitDistribution(n)
		m, ok := stats.Members[dist].(*starlarkstruct.Module)
		if !ok {
			m = &starlarkstruct.Module{Name: "scipy.stats." + dist, Members: starlark.StringDict{}}
			jstarlark.RegisterValue(stats, dist, m)
		}
		m.Members[fn] = flat.Members[n]
	}
}

func splitDistribution(name string) (dist, fn string) {
	for _, d := range distributions {
		if rest, ok := strings.CutPrefix(name, d+"_"); ok {
			return d, rest
		}
	}
	panic("lib/scipy/stats.star: " + name + " names no known distribution")
}
