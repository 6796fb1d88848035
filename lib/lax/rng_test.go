package lax_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jaxsh/jaxsh"
	"go.starlark.net/starlark"
)

// TestRngBitGeneratorKnownAnswer checks rng_bit_generator against the bits
// JAX's export back-compatibility data records for XLA's CPU RngBitGenerator
// (jax/_src/internal_test_util/export_back_compat_test_data/
// stablehlo_dynamic_rng_bit_generator.py: the unsafe_rbg split of the key
// [42, 43, 44, 45] into 6 keys, rows 0, 10, ..., 50 of the (60, 4) bits),
// eagerly and under jit, with the key it returns, and that narrower dtypes
// keep the low bits of the same words.
func TestRngBitGeneratorKnownAnswer(t *testing.T) {
	want := "[[2427392780, 1458059130, 393278117, 4094008499], [2979149501, 2789479602, 236667834, 2209180022], " +
		"[3272265009, 654898663, 3518128447, 3522413436], [3152133794, 2429726816, 183393703, 2087683200], " +
		"[2517633375, 3263052868, 344980918, 3676396031], [3594828247, 2571774884, 3751275505, 2435848784]]"
	for _, call := range []string{"f(key)", "jit(f)(key)"} {
		code := fmt.Sprintf(`key = jnp.array([42, 43, 44, 45], dtype=jnp.uint32)
def f(k):
    return lax.rng_bit_generator(k, (60, 4), algorithm=lax.RandomAlgorithm.RNG_DEFAULT)
new_key, bits = %s
rows = str(bits[::10].tolist())
new = str(new_key.tolist())
_, b8 = lax.rng_bit_generator(key, (7,), jnp.uint8)
_, b32 = lax.rng_bit_generator(key, (7,), algorithm=lax.RandomAlgorithm.RNG_PHILOX)
narrow = (b8 == (b32 & 255).astype(jnp.uint8)).all().item() and (b32 == bits.reshape(240)[:7]).all().item()
`, call)
		g, err := jaxsh.New(jaxsh.Options{}).RunString(context.Background(), "rbg.star", code, nil)
		if err != nil {
			t.Fatalf("%s: %s", call, jaxsh.FormatError(err))
		}
		if got := string(g["rows"].(starlark.String)); got != want {
			t.Errorf("%s: rows 0, 10, ..., 50 = %s\nwant %s", call, got, want)
		}
		// The state advances by the 60 Philox blocks used: 44 + 60.
		if got := string(g["new"].(starlark.String)); got != "[42, 43, 104, 45]" {
			t.Errorf("%s: new key %s, want [42, 43, 104, 45]", call, got)
		}
		if g["narrow"] != starlark.True {
			t.Errorf("%s: uint8 bits are not the low bytes of the uint32 words, or a (7,) draw is not the first words of a larger one", call)
		}
	}
}
