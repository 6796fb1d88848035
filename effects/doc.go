// Package effects is the runtime side of jaxsh's ordered effects: events
// that order asynchronous work, per-thread runtime and output tokens,
// mailboxes that run callbacks on their owner thread, and the collection of
// callback failures that effects_barrier reports. It follows JAX's design
// (../shared/seeds/sequencing-effects.txt) and knows nothing of Starlark,
// jaxprs or backends.
package effects
