package starlark_test

import (
	"bytes"
	"testing"

	. "github.com/jaxsh/jaxsh/starlark"
)

// A donated argument's buffer holds the result: the program wrote in place
// (the plan's alias), and the argument is deleted.
func TestDonatedBufferHoldsResult(t *testing.T) {
	var out bytes.Buffer
	s := newSession(&out, nil)
	g, err := s.ExecFile(s.NewThread("main"), "t.star", `
f = jit(lambda x: jnp.sin(x) * 2 + 1, donate_argnums = 0)
x = jnp.arange(1024.0)
y = f(x)
x2 = jnp.arange(1024.0)
y2 = f(x2)
kept = jnp.arange(1024.0)
y3 = jit(lambda x: jnp.sin(x) * 2 + 1)(kept)
`)
	if err != nil {
		t.Fatal(FormatError(err))
	}
	for _, p := range [][2]string{{"x", "y"}, {"x2", "y2"}} {
		x, y := g[p[0]].(*Array), g[p[1]].(*Array)
		if yb, _ := y.Buffer(); yb != x.Buf() {
			t.Errorf("%s = f(%s) is not in %s's buffer", p[1], p[0], p[0])
		}
		if x.Live() == nil {
			t.Errorf("%s was donated but is not deleted", p[0])
		}
		if y.Live() != nil {
			t.Errorf("%s: %v", p[1], y.Live())
		}
	}
	kept, y3 := g["kept"].(*Array), g["y3"].(*Array)
	if y3b, _ := y3.Buffer(); kept.Live() != nil || y3b == kept.Buf() {
		t.Errorf("an argument not donated was deleted or written")
	}
	if !arrayBytesEqual(t, y3, g["y"].(*Array)) {
		t.Errorf("donated and undonated runs differ")
	}
}

func arrayBytesEqual(t *testing.T, a, b *Array) bool {
	ha, err := a.HostBytes()
	if err != nil {
		t.Fatal(err)
	}
	hb, err := b.HostBytes()
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(ha, hb)
}
