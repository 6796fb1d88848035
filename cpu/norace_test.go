//go:build !race

package cpu

import "time"

// promptness is how soon after its cancellation a computation must have
// stopped (issue 15: within 100 ms).
const promptness = 100 * time.Millisecond
