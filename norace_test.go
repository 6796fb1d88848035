//go:build !race

package jaxsh_test

import "time"

// promptness is how soon after its cancellation a computation must have
// stopped (issue 15: within 100 ms).
const promptness = 100 * time.Millisecond
