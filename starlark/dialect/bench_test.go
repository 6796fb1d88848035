package dialect

import (
	"fmt"
	"strings"
	"testing"

	"go.starlark.net/syntax"
)

// generatedSource returns a program of exactly n lines (n >= 20): blocks of
// decorated defs with loops, conditions, comprehensions, dicts, slices,
// multi-dimensional subscripts and the dialect's operators, padded with
// assignments. With plain set it uses only Starlark, for a comparison with
// upstream's parser.
func generatedSource(n int, plain bool) string {
	const dialectBlock = `@jit
def layer_%[1]d(x, w, b, scale=0.5):
    """Layer %[1]d: affine, leaky square, masked update."""
    y = x @ w + b[None, :]  # broadcast the bias
    y = jnp.where(y > 0, y, 0.01 * y) ** 2
    for j in range(%[1]d):
        if j %% 2 == 0 and y[j, ...].sum() <= scale:
            y = y.at[j, 1:].set(-y[j, :-1] ** 0.5)
        elif j in skip:
            continue
    return {"out": y[::2, 0], "norm": (y * y).sum(axis=(0, 1))}

params_%[1]d = [init(k, shape=(%[1]d, 3)) for k in keys[%[1]d:] if k != None]
`
	const plainBlock = `def layer_%[1]d(x, w, b, scale=0.5):
    """Layer %[1]d: affine, leaky square, masked update."""
    y = matmul(x, w) + b[1]  # broadcast the bias
    y = where(y > 0, y, 0.01 * y) * y
    for j in range(%[1]d):
        if j %% 2 == 0 and y[j].sum() <= scale:
            y = y.at[j].set(-y[j][:-1])
        elif j in skip:
            continue
    return {"out": y[::2], "norm": (y * y).sum(axis=(0, 1))}

params_%[1]d = [init(k, shape=(%[1]d, 3)) for k in keys[%[1]d:] if k != None]
layer_%[1]d = jit(layer_%[1]d)
`
	block := dialectBlock
	if plain {
		block = plainBlock
	}
	blockLines := strings.Count(block, "\n")
	var b strings.Builder
	lines := 0
	for i := 0; lines+blockLines <= n; i++ {
		fmt.Fprintf(&b, block, i)
		lines += blockLines
	}
	for i := 0; lines < n; i++ {
		if plain {
			fmt.Fprintf(&b, "total = total + counts[%d] * 2 - offsets[%d:%d]\n", i, i, i+3)
		} else {
			fmt.Fprintf(&b, "total = total + counts[%d, :] ** 2 - offsets[..., %d:%d]\n", i, i, i+3)
		}
		lines++
	}
	return b.String()
}

func TestGeneratedSource(t *testing.T) {
	for _, plain := range []bool{false, true} {
		src := generatedSource(10000, plain)
		if lines := strings.Count(src, "\n"); lines != 10000 {
			t.Errorf("plain=%v: %d lines, want 10000", plain, lines)
		}
		_, extended, err := ParsePlain(nil, "gen.star", src, 0)
		if err != nil || extended == plain {
			t.Errorf("plain=%v: extended=%v, err=%v", plain, extended, err)
		}
	}
	// The plain variant is upstream Starlark, parsed identically.
	if _, problem := compareFile("gen.star", generatedSource(200, true), 0); problem != "" {
		t.Error(problem)
	}
}

// BenchmarkParse10kLines parses a generated 10,000-line dialect program,
// with all rewrites.
func BenchmarkParse10kLines(b *testing.B) {
	src := []byte(generatedSource(10000, false))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(nil, "gen.star", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse10kLinesPlain compares the dialect parser with upstream's
// on a 10,000-line program in plain Starlark.
func BenchmarkParse10kLinesPlain(b *testing.B) {
	src := []byte(generatedSource(10000, true))
	parsers := []struct {
		name  string
		parse func() error
	}{
		{"dialect", func() error { _, err := Parse(nil, "gen.star", src); return err }},
		{"upstream", func() error { _, err := (&syntax.FileOptions{}).Parse("gen.star", src, 0); return err }},
	}
	for _, parser := range parsers {
		b.Run(parser.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if err := parser.parse(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
