// Package trace holds jaxsh's intermediate representation and everything that
// shapes it: dtypes and JAX's type promotion, shapes and broadcasting,
// abstract values, the jaxpr IR (vars, literals, equations, effects), the one
// table of primitives with their shape rules, a Builder that records Go calls
// as a jaxpr, the jaxpr printer and a verifier. It uses the standard library
// only and knows nothing of Starlark, devices or compilation; the dialect, the
// compiler and the embedding API all stand on it.
//
// # Tracing
//
// A Builder makes input variables (Input) and constvars for captured
// concrete arrays (Const, whose payload the compiler passes as a buffer and
// never folds), applies primitives by name (Bind, which runs the shape rule
// and appends an equation), and closes the jaxpr (Build). Every
// Jaxpr can be checked with Verify and printed with String.
//
// # Transformations
//
// Each row of the primitive table carries its batching rule (Batch, see
// BatchRule), registered beside its primitive family in the
// prims_*_batch.go files. The interpreter that applies them, vmap's, is
// package trace/batching; rules for primitives that hold jaxprs (cond,
// while, scan, jit) batch their bodies through the Batcher it passes them.
//
// # Choices where JAX and SPEC §4 differ or SPEC is silent
//
//   - Promotion is JAX's lattice with 64-bit types enabled, minus uint64, and
//     weak results take 32-bit dtypes. As in JAX, a strong integer and a weak
//     float give a weak float32 (the doc table's i4 x f* = f*); only
//     the all-weak case and joins that land on a weak category are weak.
//   - Elementwise primitives broadcast as lax does (scalars against anything,
//     size-1 dimensions against equal ranks), so `mul c b` with c:f32[3] and
//     b:f32[] is a valid equation, as in SPEC §4's example. NumPy's rank
//     promotion is jnp's job (broadcast_in_dim).
//   - Effects print after the jaxpr's closing brace: `in (d,) } : { Ordered(print) }`.
//     Effect kinds are print, call and tap; see Effect.
//   - debug_print returns a token (`_:tok = debug_print[...]`) and may take a
//     token as its first operand, for the compiler's token threading.
//   - String params print quoted (fmt='x: {}'), names as bare identifiers
//     (jit[name=f]), other params as JAX prints them. Params JAX has only for
//     sharding or numerics options (sharding, out_sharding, accuracy) are
//     left out.
//   - The host operations are named after SPEC's functions: id_tap and call
//     (JAX's host_callback used one outside_call primitive).
package trace
