package jaxsh

import (
	"strings"
	"testing"

	"go.starlark.net/starlark"
)

// The names SPEC §3 promises in each namespace (jnp.fft and the control-flow
// and transformation members of lax arrive with their issues). A missing
// name fails here before any user meets it.
var specNames = map[string]string{
	"jnp": `array asarray zeros ones full empty zeros_like ones_like full_like arange linspace
		eye identity meshgrid indices tri
		add subtract multiply divide true_divide floor_divide mod remainder power negative
		positive abs absolute sign floor ceil round rint trunc sqrt cbrt square reciprocal
		exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan arctan2 sinh cosh
		tanh arcsinh arccosh arctanh hypot maximum minimum fmax fmin logical_and logical_or
		logical_xor logical_not bitwise_and bitwise_or bitwise_xor invert left_shift right_shift
		equal not_equal less less_equal greater greater_equal isnan isinf isfinite where clip
		deg2rad rad2deg copysign nan_to_num isclose allclose array_equal
		sum prod mean var std max amax min amin argmax argmin all any cumsum cumprod count_nonzero
		reshape ravel transpose moveaxis swapaxes expand_dims squeeze broadcast_to
		broadcast_arrays concatenate stack hstack vstack split tile repeat flip roll pad take
		take_along_axis diag diagonal triu tril sort argsort
		dot matmul vdot inner outer tensordot einsum trace
		float32 float16 bfloat16 float64 int8 int16 int32 int64 uint8 uint16 uint32 bool bool_
		pi e inf nan newaxis promote_types finfo iinfo`,
	"jnp.linalg": `norm`,
	"nn":         `relu sigmoid softmax log_softmax logsumexp gelu silu one_hot`,
	"lax": `select dynamic_slice dynamic_update_slice dot_general broadcast_in_dim
		convert_element_type iota rsqrt erf stop_gradient reduce_precision`,
}

func TestSpecNamespaceCoverage(t *testing.T) {
	mods, err := Namespaces(nil)
	if err != nil {
		t.Fatal(err)
	}
	for module, names := range specNames {
		var m starlark.Value
		parts := strings.Split(module, ".")
		m = mods[parts[0]]
		for _, p := range parts[1:] {
			m, _ = m.(starlark.HasAttrs).Attr(p)
		}
		attrs, ok := m.(starlark.HasAttrs)
		if !ok {
			t.Errorf("module %s is missing", module)
			continue
		}
		for _, name := range strings.Fields(names) {
			if v, err := attrs.Attr(name); err != nil || v == nil {
				t.Errorf("%s.%s is missing", module, name)
			}
		}
	}
}
