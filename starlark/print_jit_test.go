package starlark_test

import (
	"bytes"
	"strings"
	"testing"

	. "github.com/jaxsh/jaxsh/starlark"
)

// runPrintScript runs src in a fresh session and returns what it printed.
func runPrintScript(t *testing.T, src string) string {
	t.Helper()
	var out bytes.Buffer
	s := newSession(&out, nil)
	th := s.NewThread("main")
	_, err := s.ExecFile(th, "t.star", src)
	if cerr := s.CloseThread(th); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatalf("%s\noutput so far:\n%s", FormatError(err), out.String())
	}
	return out.String()
}

// A print inside a jitted function prints the runtime values at every call,
// in program order with the host's prints.
func TestPrintInJitPrintsRuntimeValues(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{
			name: "argument and intermediate, two calls, host prints around them",
			src: `
def f(x):
    print("x:", x)
    y = x * 2
    print("y =", y, "sum", jnp.sum(y))
    return y + 1

g = jit(f)
print("before")
r1 = g(jnp.arange(3.0))
print("between")
r2 = g(jnp.array([10.0, 20.0, 30.0]))
print("after", r1, r2)
`,
			want: `before
x: [0. 1. 2.]
y = [0. 2. 4.] sum 6.0
between
x: [10. 20. 30.]
y = [20. 40. 60.] sum 120.0
after [1. 3. 5.] [21. 41. 61.]
`,
		},
		{
			name: "print inside a nested jit",
			src: `
@jit
def inner(x):
    print("inner", x)
    return x + 1

@jit
def outer(x):
    print("outer", x)
    y = inner(x * 10)
    print("outer after", y)
    return y

print(outer(jnp.array([1, 2])))
print(outer(jnp.array([3, 4])))
`,
			want: `outer [1 2]
inner [10 20]
outer after [11 21]
[11 21]
outer [3 4]
inner [30 40]
outer after [31 41]
[31 41]
`,
		},
		{
			name: "no arrays: a string and a number print at every call, braces kept",
			src: `
@jit
def f(x):
    print("calling {f}", 42, sep=": ", end="!\n")
    return x

f(jnp.ones(2))
f(jnp.ones(2))
print("done")
`,
			want: `calling {f}: 42!
calling {f}: 42!
done
`,
		},
		{
			name: "concrete arrays inside a trace are printed at run time too",
			src: `
c = jnp.array([[1, 2], [3, 4]])
f = jit(lambda x: print("c", c, "x", x, ordered=False))
f(jnp.float32(1.5))
`,
			want: `c [[1 2]
 [3 4]] x 1.5
`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := runPrintScript(t, c.src); got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

func TestPrintInJitJaxpr(t *testing.T) {
	got := runPrintScript(t, `
def f(x):
    y = x + 1.0
    print("y: {", y, "}")
    return y
print(make_jaxpr(f)(jnp.arange(3.0)))
`)
	want := `{ lambda ; a:f32[3]. let
    b:f32[3] = add a 1.0:f32[]
    _:tok = debug_print[fmt='y: {{ {} }}\n' ordered=True] b
  in (b,) } : { Ordered(print) }`
	if strings.TrimSpace(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
