package dialect

import (
	"testing"

	"go.starlark.net/syntax"
)

// dialectSamples seed the fuzzer with the dialect's own constructs.
var dialectSamples = []string{
	"y = -2 ** 2 + 2 ** -1 - 2 ** 3 ** 2\n",
	"z = a @ b * c @ d\nw = a * b @ c\n",
	"x[1:3, None, ..., ::2]\nx[i, j]\nx[::]\nx[1,]\nx[a, b:c]\n",
	"@jit\n@partial(jit, static_argnums=(1,))\ndef f(x, n):\n  return x ** n\n",
	"def g():\n    @d\n    def h(): pass\n    return h\n",
	"if c:\n  @d(1)\n  def k(a, *args, **kwargs):\n    return a\n",
	"x **= 2\nx @= w\nx.y[0] **= -1\n",
	"t = x[..., 0] if a < b else x[..., 1:]\n",
	"m = a == b != (c >= d) and e not in f\n",
	"f(**kwargs)\nf(*a ** b)\nf(x=a ** b)\n",
	"[v ** 2 for v in xs if v @ w > 0]\n",
	"e = ...\nlambda: ...\n",
	"x[1:2:3:4]\n",
	"@d\nx = 1\n",
	"a ** \n",
	"s = f\"{x:>{w}.{p}f} {y!r} {{}} {z=}\"\n",
	"s = f'{a[\"k\"]:{\"<\"}8}' + F\"\"\"{\n b\n}\"\"\" + rf\"\\d{c}\"\n",
	"s = f\"{f'{x}'}\" % (1,) + '{:.3f}'.format(y)\n",
	"import jax\nimport jax.numpy as jnp, jax.random as jr\nfrom jax import (jit, grad as g,)\n",
	"x = jnp.load(p).load\nload('m.star', 'a')\n",
	"class C: pass\n",
	"assert x, 'm'\n",
	"if x is None: pass\n",
}

// FuzzParse checks, on any input, that the dialect parser never panics, that
// the rewrites never fail where the plain parse succeeds, and that without
// extensions it agrees exactly with upstream, as a file (with and without
// comments), as REPL input and as an expression.
func FuzzParse(f *testing.F) {
	_, chunks := upstreamChunks(f)
	for _, c := range chunks {
		f.Add(c.Source)
	}
	for _, s := range dialectSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, mode := range []syntax.Mode{0, syntax.RetainComments} {
			if _, problem := compareFile("fuzz.star", src, mode); problem != "" {
				t.Fatalf("as a file (mode %d): %s", mode, problem)
			}
		}
		if _, problem := compareCompound("fuzz.star", src); problem != "" {
			t.Fatalf("as REPL input: %s", problem)
		}
		if _, problem := compareExpr("fuzz.star", src); problem != "" {
			t.Fatalf("as an expression: %s", problem)
		}

		_, _, plainErr := ParsePlain(nil, "fuzz.star", src, 0)
		_, err := Parse(nil, "fuzz.star", src)
		if (err == nil) != (plainErr == nil) {
			t.Fatalf("Parse error %v, ParsePlain error %v", err, plainErr)
		}
		if _, err := ParseExpr(nil, "fuzz.star", src); err != nil && isInternal(err) {
			t.Fatal(err)
		}
	})
}

func isInternal(err error) bool {
	se, ok := err.(syntax.Error)
	return !ok || len(se.Msg) >= 14 && se.Msg[:14] == "internal error"
}
