//go:build race

package jaxsh_test

import "time"

// promptness is how soon after its cancellation a computation must have
// stopped. The race detector instruments every memory access of the
// kernels and slows them about tenfold, chunk by chunk: the bound scales
// with them.
const promptness = 1000 * time.Millisecond
