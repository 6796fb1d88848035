// Package ad differentiates jaxprs, as JAX's ad.py and partial_eval.py do:
// every transformation maps a jaxpr to a jaxpr, so a derivative is an
// ordinary program that jit compiles and fuses like any other.
//
//   - JVP (forward mode) runs each equation's JVP rule (a column of the
//     primitive table in package trace) to compute tangents along with the
//     primal values.
//   - PartialEval splits a jaxpr whose inputs are partly known into a known
//     part, run now, and an unknown part fed by residuals. Linearize is JVP
//     followed by partial evaluation with the primals known: the unknown
//     part is linear in the tangents.
//   - Transpose turns a linear jaxpr into its transpose with each
//     primitive's transpose rule. VJP is Linearize then Transpose.
//
// Tangents and cotangents may be symbolic zeros (nil atoms), for which
// nothing is computed. Integer and bool values never carry tangents (JAX's
// float0): the callers decide what to show for them.
//
// Effects: a print or tap has no tangent, so it stays in the known part of
// a linearized function and runs once, in the forward computation, with
// primal values. A checkpoint equation's primal part is computed again in
// the backward pass (and its taps run again there), after the cotangents
// it needs, which an optimization barrier makes it wait for.
//
// The rules of primitives that hold jaxprs (jit, cond, scan, while,
// checkpoint, custom_jvp_call, custom_vjp_call, custom_lin) call these
// interpreters recursively, so this package registers them in the
// primitive table when it is loaded (trace.SetAD); trace itself cannot
// import the interpreters. Partial evaluation rules are this package's
// own (they are part of the interpreter, as in JAX's partial_eval.py).
package ad
