package random

import (
	"bytes"
	"hash/adler32"
	"math"
	"strings"
	"testing"

	_ "github.com/jaxsh/jaxsh/cpu"
	"github.com/jaxsh/jaxsh/lib/numpy"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Known answers for the original threefry scheme (jax_threefry_partitionable
// =False, JAX's default before 0.5.0), which the module keeps behind
// prng.partitionable. The default scheme's known answers are in
// testdata/random.star. Every value here was printed by JAX; the source is
// named beside it.

var originalScheme = prng{partitionable: false}

// rngTest runs one composition on the default device and returns its array.
func rngTest(t *testing.T, build func(r *rng) *jstarlark.Array) *jstarlark.Array {
	t.Helper()
	dev, err := jstarlark.DefaultDevice()
	if err != nil {
		t.Fatal(err)
	}
	r := newRNG("test", dev)
	a, err := r.Done(build(r))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// seedKey is PRNGKey(seed) for a Python int seed.
func seedKey(t *testing.T, seed int64) *jstarlark.Array {
	t.Helper()
	s, err := seedArg("PRNGKey", starlark.MakeInt64(seed))
	if err != nil {
		t.Fatal(err)
	}
	return rngTest(t, func(r *rng) *jstarlark.Array { return r.seed(s) })
}

// caseSeed is RandomValuesCase._seed in tests/random_test.py:
// zlib.adler32(name + prng_impl).
func caseSeed(name string) int64 {
	return int64(adler32.Checksum([]byte(name + "threefry2x32")))
}

// hostValues returns a's elements as a Go slice of its element type.
func hostValues(t *testing.T, a *jstarlark.Array) any {
	t.Helper()
	v, err := a.HostValues()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func f32(r *rng, v float64) *jstarlark.Array { return r.konst(trace.Float32, starlark.Float(v)) }
func i32(r *rng, v int) *jstarlark.Array     { return r.konst(trace.Int32, starlark.MakeInt(v)) }

// checkInts compares integer-valued results exactly.
func checkInts[E uint8 | uint16 | uint32 | int32](t *testing.T, what string, a *jstarlark.Array, want []E) {
	t.Helper()
	got, ok := hostValues(t, a).([]E)
	if !ok || len(got) != len(want) {
		t.Errorf("%s: got %s %v, want %v", what, a.AVal().LongString(), hostValues(t, a), want)
		return
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: got %v, want %v", what, got, want)
			return
		}
	}
}

// checkFloats compares float32 results with JAX's printed values: exactly
// when tol is 0 (a repr's digits identify the float32), else within tol
// (values JAX's tests round to six decimals).
func checkFloats(t *testing.T, what string, a *jstarlark.Array, want []float64, tol float64) {
	t.Helper()
	got, ok := hostValues(t, a).([]float32)
	if !ok || len(got) != len(want) {
		t.Errorf("%s: got %s, want %d float32 values", what, a.AVal().LongString(), len(want))
		return
	}
	for i := range want {
		if d := math.Abs(float64(got[i]) - want[i]); (tol == 0 && got[i] != float32(want[i])) || d > tol+1e-6*math.Abs(want[i]) {
			t.Errorf("%s: element %d is %v, want %v (all: %v)", what, i, got[i], want[i], got)
			return
		}
	}
}

func TestRandomOriginalSchemeKnownAnswers(t *testing.T) {
	p := originalScheme
	// tests/random_test.py, testPRNGValues.
	checkInts(t, "randint(PRNGKey(0), (3, 3), 0, 8)", rngTest(t, func(r *rng) *jstarlark.Array {
		return p.randint(r, seedKey(t, 0), trace.Shape{3, 3}, i32(r, 0), i32(r, 8), trace.Int32)
	}), []int32{2, 1, 3, 6, 1, 5, 6, 3, 4})
	checkInts(t, "split(PRNGKey(0), 4)", rngTest(t, func(r *rng) *jstarlark.Array {
		return p.split(r, seedKey(t, 0), trace.Shape{4})
	}), []uint32{2285895361, 1501764800, 1518642379, 4090693311, 433833334, 4221794875, 839183663, 3740430601})
	checkInts(t, "fold_in(PRNGKey(0), 4)", rngTest(t, func(r *rng) *jstarlark.Array {
		return r.foldIn(seedKey(t, 0), r.u32(4))
	}), []uint32{2285895361, 433833334})

	// tests/random_test.py, testRngRandomBits (seed 1701).
	k1701 := seedKey(t, 1701)
	checkInts(t, "bits8", rngTest(t, func(r *rng) *jstarlark.Array { return p.bits(r, k1701, 8, trace.Shape{3}) }), []uint8{216, 115, 43})
	checkInts(t, "bits16", rngTest(t, func(r *rng) *jstarlark.Array { return p.bits(r, k1701, 16, trace.Shape{3}) }), []uint16{41682, 1300, 55017})
	checkInts(t, "bits32", rngTest(t, func(r *rng) *jstarlark.Array { return p.bits(r, k1701, 32, trace.Shape{3}) }), []uint32{56197195, 4200222568, 961309823})

	// tests/random_test.py, _RANDOM_VALUES_CASES (threefry2x32 rows, shape
	// (5,), float32; generated in 32-bit mode, assertAllClose at 1e-6).
	kc := func(name string) *jstarlark.Array { return seedKey(t, caseSeed(name)) }
	checkInts(t, "bits uint8", rngTest(t, func(r *rng) *jstarlark.Array { return p.bits(r, kc("bits"), 8, trace.Shape{5}) }), []uint8{10, 158, 82, 54, 158})
	checkInts(t, "bits uint16", rngTest(t, func(r *rng) *jstarlark.Array { return p.bits(r, kc("bits"), 16, trace.Shape{5}) }), []uint16{6738, 38161, 50695, 57337, 61600})
	checkInts(t, "bits uint32", rngTest(t, func(r *rng) *jstarlark.Array { return p.bits(r, kc("bits"), 32, trace.Shape{5}) }),
		[]uint32{1978747883, 4134381225, 3628107870, 689687174, 2788938207})
	checkFloats(t, "uniform", rngTest(t, func(r *rng) *jstarlark.Array {
		return p.uniform(r, kc("uniform"), trace.Shape{5}, trace.Float32, f32(r, 0), f32(r, 1))
	}), []float64{0.298671, 0.073213, 0.873356, 0.260549, 0.412797}, 1e-6)
	checkFloats(t, "normal", rngTest(t, func(r *rng) *jstarlark.Array {
		return p.normal(r, kc("normal"), trace.Shape{5}, trace.Float32)
	}), []float64{-1.173234, -1.511662, 0.070593, -0.099764, 1.052845}, 1e-6)
	checkInts(t, "randint", rngTest(t, func(r *rng) *jstarlark.Array {
		return p.randint(r, kc("randint"), trace.Shape{5}, i32(r, 0), i32(r, 10), trace.Int32)
	}), []int32{0, 5, 7, 7, 5})
	bern := rngTest(t, func(r *rng) *jstarlark.Array {
		return p.bernoulli(r, kc("bernoulli"), f32(r, 0.5), trace.Shape{5}, false)
	})
	if got := hostValues(t, bern).([]bool); got[0] || !got[1] || !got[2] || !got[3] || got[4] {
		t.Errorf("bernoulli: got %v, want [false true true true false]", got)
	}
	checkFloats(t, "gumbel", rngTest(t, func(r *rng) *jstarlark.Array {
		return p.gumbel(r, kc("gumbel"), trace.Shape{5}, trace.Float32, false)
	}), []float64{2.06701, 0.911726, 0.145736, 0.185427, -0.00711}, 1e-6)

	// jax/random.py docstring and docs/jep/9263-typed-keys.md before JAX
	// commit a60ead6 switched the default scheme (the lines it removed).
	k0 := seedKey(t, 0)
	checkFloats(t, "uniform(key(0))", rngTest(t, func(r *rng) *jstarlark.Array {
		return p.uniform(r, k0, trace.Shape{}, trace.Float32, f32(r, 0), f32(r, 1))
	}), []float64{0.41845703}, 0)
	checkFloats(t, "uniform(split(key(0))[1])", rngTest(t, func(r *rng) *jstarlark.Array {
		return p.uniform(r, r.row(p.split(r, k0, trace.Shape{2}), 1), trace.Shape{}, trace.Float32, f32(r, 0), f32(r, 1))
	}), []float64{0.10536897}, 0)
	checkFloats(t, "uniform(key(0), (3,))", rngTest(t, func(r *rng) *jstarlark.Array {
		return p.uniform(r, k0, trace.Shape{3}, trace.Float32, f32(r, 0), f32(r, 1))
	}), []float64{0.9653214, 0.31468165, 0.63302994}, 0)

	// jax/_src/internal_test_util/export_back_compat_test_data/
	// cuda_threefry2x32.py: uniform(key, (2, 4)) for the key [42, 43], run with
	// threefry_partitionable(False) by tests/export_back_compat_test.py.
	checkFloats(t, "uniform([42, 43], (2, 4))", rngTest(t, func(r *rng) *jstarlark.Array {
		key := r.concat(0, r.Reshape(r.u32(42), trace.Shape{1}), r.Reshape(r.u32(43), trace.Shape{1}))
		return p.uniform(r, key, trace.Shape{2, 4}, trace.Float32, f32(r, 0), f32(r, 1))
	}), []float64{0.42591238, 0.076994896, 0.44370103, 0.72904015, 0.17879379, 0.81439507, 0.0019190311, 0.68608475}, 0)

	// jax/_src/nn/initializers.py, uniform(10.0) docstring (written in 2022
	// with PRNGKey(42), original scheme; marked +SKIP): the draws times 10.
	checkFloats(t, "uniform(key(42), (2, 3)) * 10", rngTest(t, func(r *rng) *jstarlark.Array {
		u := p.uniform(r, seedKey(t, 42), trace.Shape{2, 3}, trace.Float32, f32(r, 0), f32(r, 1))
		return r.Binary("mul", u, f32(r, 10))
	}), []float64{7.298188, 8.691938, 8.7230015, 2.0818567, 1.8662417, 5.5022564}, 0)

	// docs/pallas/tpu/distributed.ipynb (stored outputs): elements of
	// uniform(key(0), (8, 512)) and (32, 128), the same 4096 values in the
	// original scheme. NumPy printed them with 8 decimals.
	u := rngTest(t, func(r *rng) *jstarlark.Array {
		return p.uniform(r, k0, trace.Shape{4096}, trace.Float32, f32(r, 0), f32(r, 1))
	})
	vals := hostValues(t, u).([]float32)
	for i, want := range map[int]float64{0: 0.9858954, 128: 0.11763906, 256: 0.9955574, 384: 0.775211, 1024: 0.54248166, 2048: 0.9547038, 3072: 0.954962} {
		if vals[i] != float32(want) && math.Abs(float64(vals[i])-want) > 5e-9 {
			t.Errorf("uniform(key(0), (4096,))[%d] = %v, want %v", i, vals[i], want)
		}
	}
}

// TestRandomBitsViewProperty is JAX's testRngRandomBitsViewProperty for the
// original scheme: 8- and 16-bit draws are the 32-bit words, little-endian.
func TestRandomBitsViewProperty(t *testing.T) {
	p := originalScheme
	key := seedKey(t, 1701)
	words := hostValues(t, rngTest(t, func(r *rng) *jstarlark.Array { return p.bits(r, key, 32, trace.Shape{20}) })).([]uint32)
	b8 := hostValues(t, rngTest(t, func(r *rng) *jstarlark.Array { return p.bits(r, key, 8, trace.Shape{80}) })).([]uint8)
	b16 := hostValues(t, rngTest(t, func(r *rng) *jstarlark.Array { return p.bits(r, key, 16, trace.Shape{40}) })).([]uint16)
	for i, w := range words {
		for j := range 4 {
			if b8[4*i+j] != uint8(w>>(8*j)) {
				t.Fatalf("bits8[%d] = %d, want byte %d of word %#x", 4*i+j, b8[4*i+j], j, w)
			}
		}
		if b16[2*i] != uint16(w) || b16[2*i+1] != uint16(w>>16) {
			t.Fatalf("bits16[%d:%d] = %v, want the halves of %#x", 2*i, 2*i+2, b16[2*i:2*i+2], w)
		}
	}
}

// TestRandomThreefryPairing is JAX's testThreefry2x32: the Random123 known
// answers through threefry_2x32, whose count array is hashed as (first half,
// second half) pairs.
func TestRandomThreefryPairing(t *testing.T) {
	for _, tc := range []struct{ key, count, want [2]uint32 }{
		{[2]uint32{0, 0}, [2]uint32{0, 0}, [2]uint32{0x6b200159, 0x99ba4efe}},
		{[2]uint32{0xffffffff, 0xffffffff}, [2]uint32{0xffffffff, 0xffffffff}, [2]uint32{0x1cb996fc, 0xbb002be7}},
		{[2]uint32{0x13198a2e, 0x03707344}, [2]uint32{0x243f6a88, 0x85a308d3}, [2]uint32{0xc4923a9c, 0x483df7a0}},
	} {
		got := rngTest(t, func(r *rng) *jstarlark.Array {
			pair := func(v [2]uint32) *jstarlark.Array {
				return r.concat(0, r.Reshape(r.u32(v[0]), trace.Shape{1}), r.Reshape(r.u32(v[1]), trace.Shape{1}))
			}
			return r.hash(pair(tc.key), pair(tc.count))
		})
		checkInts(t, "threefry_2x32", got, tc.want[:])
	}
}

// TestRandomFloat64Bits checks uniform's float64 branch, which jaxsh builds
// from two uint32 halves, against the uint64 formula JAX applies, in both
// schemes, and its leading bits against JAX's float32 value for the same
// word (the original scheme's uniform(key(0)) is hashed from the pair (0, 0)
// that gives the partitionable scheme's first high word).
func TestRandomFloat64Bits(t *testing.T) {
	for _, p := range []prng{originalScheme, defaultPRNG} {
		key := seedKey(t, 5)
		shape := trace.Shape{7}
		hi := hostValues(t, rngTest(t, func(r *rng) *jstarlark.Array { h, _ := p.bits64(r, key, shape); return h })).([]uint32)
		lo := hostValues(t, rngTest(t, func(r *rng) *jstarlark.Array { _, l := p.bits64(r, key, shape); return l })).([]uint32)
		u := hostValues(t, rngTest(t, func(r *rng) *jstarlark.Array {
			c := func(v float64) *jstarlark.Array { return r.konst(trace.Float64, starlark.Float(v)) }
			return p.uniform(r, key, shape, trace.Float64, c(0), c(1))
		})).([]float64)
		for i := range u {
			bits := (uint64(hi[i])<<32|uint64(lo[i]))>>12 | 0x3FF0000000000000
			if want := math.Float64frombits(bits) - 1; u[i] != want {
				t.Errorf("partitionable=%v: uniform float64 [%d] = %v, want %v", p.partitionable, i, u[i], want)
			}
		}
	}
	u := hostValues(t, rngTest(t, func(r *rng) *jstarlark.Array {
		c := func(v float64) *jstarlark.Array { return r.konst(trace.Float64, starlark.Float(v)) }
		return defaultPRNG.uniform(r, seedKey(t, 0), trace.Shape{}, trace.Float64, c(0), c(1))
	})).([]float64)
	if got := float32(math.Floor(u[0]*(1<<23)) / (1 << 23)); got != 0.41845703 {
		t.Errorf("float64 uniform(key(0)) = %v: its float32 truncation %v is not JAX's 0.41845703", u[0], got)
	}
}

// TestRandomNames checks that every name SPEC §3 lists for random exists.
func TestRandomNames(t *testing.T) {
	mod := starlark.HasAttrs(Module)
	for _, name := range strings.Fields("key PRNGKey split fold_in uniform normal randint bernoulli permutation categorical") {
		if v, err := mod.Attr(name); err != nil || v == nil {
			t.Errorf("random.%s is missing", name)
		}
	}
}

// TestRandomErrors checks that bad calls fail with JAX's message, naming the
// function, and never with an internal error.
func TestRandomErrors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		// Keys that are not threefry keys.
		{"random.uniform(jnp.zeros(3, dtype=jnp.uint32))", []string{"random.uniform", "expected key_data.shape to end with (2,); got shape=(3,)"}},
		{"random.normal(jnp.zeros(2))", []string{"random.normal", "expected key_data.dtype = uint32; got dtype=float32"}},
		{"random.uniform(0)", []string{"random.uniform", "expected key_data.ndim >= 1; got ndim=0"}},
		{"random.split([0, 0])", []string{"random.split", "unexpected PRNG key type list"}},
		{"random.split(random.split(random.key(0)))", []string{"random.split accepts a single key, but was given a key array of shape (2,) != ()"}},
		{"random.fold_in(random.split(random.key(0), (2, 3)), 1)", []string{"random.fold_in accepts a single key", "shape (2, 3)"}},
		// Seeds and fold_in data.
		{"random.key(1.5)", []string{"random.key", "PRNG key seed must be an integer"}},
		{"random.PRNGKey(jnp.array([1, 2]))", []string{"random.PRNGKey accepts a scalar seed, but was given an array of shape (2,)"}},
		{"random.key(2 ** 64)", []string{"random.key", "does not fit in int64"}},
		{"random.key(0, impl='rbg')", []string{"random.key", "unrecognized PRNG implementation"}},
		{"random.fold_in(random.key(0), jnp.arange(3))", []string{"random.fold_in accepts a scalar, but was given an array of shape (3,)"}},
		{"random.fold_in(random.key(0), -1)", []string{"random.fold_in", "Python int -1 too large to convert to uint32"}},
		// Dtypes a sampler does not produce.
		{"random.uniform(random.key(0), dtype=jnp.int32)", []string{"random.uniform", "must be a float dtype, got int32"}},
		{"random.normal(random.key(0), dtype='int8')", []string{"random.normal", "must be a float or complex dtype, got int8"}},
		{"random.randint(random.key(0), (3,), 0, 10, dtype=jnp.float32)", []string{"random.randint", "only accepts integer dtypes, got float32"}},
		{"random.randint(random.key(0), (3,), 0, 10, dtype=jnp.int64)", []string{"random.randint", "int64 is not supported", "no uint64"}},
		{"random.bits(random.key(0), (2,), jnp.int8)", []string{"random.bits", "must be an unsigned int dtype, got int8"}},
		{"random.bernoulli(random.key(0), 1)", []string{"random.bernoulli", "must have a floating dtype, got int32"}},
		{"random.gumbel(random.key(0), dtype=jnp.int32)", []string{"random.gumbel", "must be a float dtype, got int32"}},
		{"random.categorical(random.key(0), jnp.arange(3))", []string{"random.categorical", "must be a float dtype, got int32"}},
		{"random.uniform(random.key(0), dtype='float8')", []string{"random.uniform", `unknown dtype "float8"`}},
		// Shapes.
		{"random.normal(random.key(0), (2, -1))", []string{"random.normal", "negative dimensions are not allowed"}},
		{"random.uniform(random.key(0), 'a')", []string{"random.uniform", "shape must be an int or a sequence of ints"}},
		{"random.randint(random.key(0), (3,), jnp.zeros((2, 3), dtype=jnp.int32), 10)", []string{"random.randint", "broadcast-compatible with shape argument", "got result (2, 3) for shape argument (3,)"}},
		{"random.randint(random.key(0), (2,), jnp.zeros(3, dtype=jnp.int32), 10)", []string{"random.randint", "incompatible shapes for broadcasting: (2,), (3,)"}},
		{"random.bernoulli(random.key(0), jnp.full(3, 0.5), shape=(2,))", []string{"random.bernoulli", "(2,) and (3,)"}},
		{"random.uniform(random.key(0), (2,), minval=jnp.zeros(3))", []string{"random.uniform", "(2,)", "(3,)"}},
		{"random.categorical(random.key(0), jnp.zeros((2, 3)), shape=(3,))", []string{"random.categorical", "(3,) and (2,)"}},
		{"random.categorical(random.key(0), jnp.zeros((2, 3)), axis=2)", []string{"random.categorical", "axis 2 is out of bounds"}},
		{"random.categorical(random.key(0), jnp.zeros((2, 0)))", []string{"random.categorical", "empty sequence"}},
		{"random.permutation(random.key(0), jnp.arange(3), axis=1)", []string{"random.permutation", "axis 1 is out of bounds"}},
		// Arguments of the wrong kind, and modes jaxsh lacks.
		{"random.permutation(random.key(0), 2.5)", []string{"random.permutation", "x must be an integer or at least 1-dimensional"}},
		{"random.permutation(random.key(0), [1, 2])", []string{"random.permutation requires ndarray or scalar arguments, got list"}},
		{"random.randint(random.key(0), (2,), 'a', 3)", []string{"random.randint requires ndarray or scalar arguments, got string"}},
		{"random.bernoulli(random.key(0), mode='mid')", []string{"random.bernoulli", "expected 'high' or 'low'"}},
		{"random.gumbel(random.key(0), mode='highest')", []string{"random.gumbel", "'highest' is not supported"}},
		{"random.categorical(random.key(0), jnp.zeros(3), shape=(4,), replace=False)", []string{"random.categorical", "Number of samples without replacement (4) cannot exceed number of categories (3)."}},
		{"random.normal(random.key(0), dtype=jnp.complex64)", []string{"random.normal", "complex", "not supported"}},
	} {
		session := jstarlark.NewSession(&bytes.Buffer{}, starlark.StringDict{"jnp": numpy.Module, "random": Module})
		thread := session.NewThread("errors")
		_, err := session.ExecFile(thread, "errors.star", "x = "+tc.src+"\n")
		if err == nil {
			t.Errorf("%s: no error", tc.src)
			continue
		}
		msg := jstarlark.FormatError(err)
		if strings.Contains(msg, "internal error") {
			t.Errorf("%s: internal error:\n%s", tc.src, msg)
			continue
		}
		rest := msg
		for _, w := range tc.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s: error %q lacks %q (in order)", tc.src, msg, w)
				break
			}
			rest = rest[i+len(w):]
		}
	}
}
