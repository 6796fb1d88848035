// Package fuzz calls random builtins of every namespace (jnp with its
// linalg and fft, lax, nn with its initializers, random, array methods,
// operators, indexing, .at), eagerly and under jit, with random values,
// shapes and dtypes, and asserts that whatever happens is a Starlark error
// or a value: never a Go panic, an "internal error" or a hang.
//
//	go test ./internal/fuzz -run '^$' -fuzz FuzzBuiltins -fuzztime 10m -parallel 1
package fuzz

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/jaxsh/jaxsh"
	"go.starlark.net/syntax"
)

// A script is generated from the fuzzer's bytes, one choice per byte.
type chooser struct{ data []byte }

func (c *chooser) next() int {
	if len(c.data) == 0 {
		return 0
	}
	b := c.data[0]
	c.data = c.data[1:]
	return int(b)
}

func pick[T any](c *chooser, xs []T) T { return xs[c.next()%len(xs)] }

var (
	dtypes     = []string{"float32", "float64", "int32", "int64", "int8", "uint8", "uint32", "bool", "float16", "bfloat16", "complex64"}
	dims       = []int{0, 1, 2, 3, 4}
	ints       = []string{"0", "1", "2", "3", "-1", "-2", "5", "1 << 62", "-(1 << 62)", "True", "0.5", "-1.5", "float('nan')", "float('inf')"}
	others     = []string{"None", "'a'", "()", "[]", "(1, 2)", "[0, 1]", "(0,)", "(-1,)", "{}", "random.PRNGKey(0)", "jnp.float32", "'float32'", "lambda x: x", "(1, 1 << 62)", "((0, 1),)", "..."}
	kwargs     = []string{"axis", "dtype", "keepdims", "shape", "where", "initial", "axes", "size", "n", "k", "mode", "side", "indices_are_sorted", "unique_indices", "fill_value", "out", "ord", "precision", "dimension", "length", "reverse", "num", "x", "newshape"}
	namespaces = []string{"jnp", "lax", "nn", "random", "jnp.linalg"}
	methods    = []string{"sum", "mean", "max", "min", "argmax", "reshape", "transpose", "astype", "clip", "cumsum", "flatten", "item", "tolist", "squeeze", "round", "prod", "all", "any", "ravel"}
	operators  = []string{"+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^", "<", "<=", "==", "!=", ">", ">="}
	atOps      = []string{"set", "add", "mul", "min", "max", "get"}
)

func shape(c *chooser) string {
	n := c.next() % 4
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprint(pick(c, dims))
	}
	return "(" + strings.Join(parts, ", ") + map[bool]string{true: ",", false: ""}[n == 1] + ")"
}

// value is an expression for a random argument.
func value(c *chooser) string {
	switch c.next() % 6 {
	case 0, 1:
		n := c.next() % 4
		parts := make([]string, n)
		size := 1
		for i := range parts {
			d := pick(c, dims)
			size *= d
			parts[i] = fmt.Sprint(d)
		}
		return fmt.Sprintf("(jnp.arange(%d) - %d).reshape((%s)).astype(jnp.%s)", size, size/2, strings.Join(append(parts, ""), ", "), pick(c, dtypes))
	case 2:
		return fmt.Sprintf("jnp.ones(%s, jnp.%s) * %s", shape(c), pick(c, dtypes), pick(c, []string{"1", "-2", "0.5", "3"}))
	case 3:
		return pick(c, ints)
	case 4:
		return pick(c, others)
	}
	return fmt.Sprintf("jnp.array(%s)", pick(c, []string{"[1.0, -2.0, 3.5]", "[[1, 2], [3, 4]]", "3", "True", "[]", "[[0.5]]", "[1, 2, 3, 4, 5, 6]"}))
}

// call is one random operation on the arguments a0, a1, a2.
func call(c *chooser) string {
	switch c.next() % 6 {
	case 0:
		return fmt.Sprintf("a0 %s a1", pick(c, operators))
	case 1:
		m := pick(c, methods)
		return fmt.Sprintf("a0.%s(%s)", m, pickArgs(c, 1))
	case 2:
		return fmt.Sprintf("a0[%s]", pick(c, []string{"a1", "0", "-1", "1:", "::-1", "None", "...", "a1, a2", "a1 > 0", "(0, 0)", "[0, 1]", "1 << 62", ":, None"}))
	case 3:
		op := pick(c, atOps)
		if op == "get" {
			return fmt.Sprintf("a0.at[%s].get()", pick(c, []string{"0", "a1", "1:", "-1", "(0, 1)"}))
		}
		return fmt.Sprintf("a0.at[%s].%s(a1)", pick(c, []string{"0", "a1", "1:", "-1", "(0, 1)", "..."}), op)
	}
	ns := pick(c, namespaces)
	return fmt.Sprintf("pick(%s, %d)(%s)", ns, c.next(), pickArgs(c, c.next()%4))
}

func pickArgs(c *chooser, n int) string {
	var parts []string
	for i := range n {
		parts = append(parts, fmt.Sprintf("a%d", i%3))
	}
	if c.next()%3 == 0 {
		parts = append(parts, fmt.Sprintf("%s = a%d", pick(c, kwargs), c.next()%3))
	}
	return strings.Join(parts, ", ")
}

// script builds the program for one input.
func script(data []byte) string {
	c := &chooser{data: data}
	var b strings.Builder
	// A picked submodule (jnp.fft, jnp.linalg, nn.initializers) is
	// descended into, so its functions are called too.
	b.WriteString(`def pick(ns, k):
    for _ in range(3):
        names = [n for n in dir(ns) if not n.startswith('_')]
        v = getattr(ns, names[k % len(names)])
        if type(v) != "module":
            return v
        ns, k = v, k * 31 + 7
    return v
`)
	for i := range 3 {
		fmt.Fprintf(&b, "a%d = %s\n", i, value(c))
	}
	op := call(c)
	if c.next()%2 == 0 {
		fmt.Fprintf(&b, "r = %s\n", op)
	} else {
		// Under jit: arrays become arguments, everything else is closed over.
		fmt.Fprintf(&b, "def f(a0, a1, a2):\n    return %s\n", op)
		b.WriteString("r = jit(f)(a0, a1, a2)\n")
	}
	b.WriteString("print(r)\n")
	return b.String()
}

var interp = jaxsh.New(jaxsh.Options{Stdout: io.Discard, Stderr: io.Discard})

// bad reports what an outcome must never be.
func bad(err error) string {
	if err == nil {
		return ""
	}
	msg := jaxsh.FormatError(err)
	for _, s := range []string{"internal error", "panic:", "goroutine ", "please report this bug", "runtime error:"} {
		if strings.Contains(msg, s) {
			return msg
		}
	}
	return ""
}

func run(t *testing.T, data []byte) {
	src := script(data)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// A run that ignores its cancellation would hang the fuzzer silently:
	// crash instead, which records the input.
	watchdog := time.AfterFunc(40*time.Second, func() {
		panic("still running 20 s after its cancellation:\n" + src)
	})
	defer watchdog.Stop()
	_, err := interp.RunString(ctx, "fuzz.star", src, nil)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("no result after 20 s:\n%s", src)
	}
	if msg := bad(err); msg != "" {
		t.Fatalf("script:\n%s\nfailed with:\n%s", src, msg)
	}
}

func FuzzBuiltins(f *testing.F) {
	for _, seed := range []string{
		"\x00\x00\x01\x02\x00\x00\x03\x01\x00\x00\x00\x05\x00",
		"\x05\x02\x03\x03\x04\x00\x07\x01\x02\x04\x03\x00\x01",
		"\x02\x01\x01\x05\x00\x02\x09\x01\x00\x05\x04\x22\x03\x00\x01",
		"\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",
		"\x01\x00\x00\x00\x04\x01\x05\x01\x03\x02\x00\x01",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) { run(t, data) })
}

// TestGeneratedScriptsParse keeps the generator honest: every script it
// writes is valid jaxsh, so the fuzzer explores builtins, not syntax errors.
func TestGeneratedScriptsParse(t *testing.T) {
	for i := range 300 {
		data := []byte{byte(i), byte(i * 7), byte(i * 13), byte(i * 31), byte(i / 3), byte(i * 5), byte(i), byte(i * 11), byte(i * 17), byte(i / 7), byte(i * 3), byte(i * 19)}
		src := script(data)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err := interp.RunString(ctx, "gen.star", src, nil)
		cancel()
		var syn syntax.Error
		if errors.As(err, &syn) {
			t.Fatalf("generated a syntax error:\n%s\n%s", src, jaxsh.FormatError(err))
		}
		if msg := bad(err); msg != "" {
			t.Errorf("script:\n%s\nfailed with:\n%s", src, msg)
		}
	}
}
