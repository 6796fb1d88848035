package cpu

import (
	"os"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// Every test runs with unzeroed results poisoned: a loop kernel that left
// an element unwritten would show it in the values the tests check.
func TestMain(m *testing.M) {
	poisonUninitialized = true
	os.Exit(m.Run())
}

// The poison itself, so that a broken hook cannot pass silently.
func TestUninitializedResultsArePoisoned(t *testing.T) {
	b, _ := newUninitializedBuffer(testDevice().(*Device), trace.AVal{Shape: []int{uninitializedMin}, DType: trace.Uint8})
	for i, x := range b.data {
		if x != 0xFF {
			t.Fatalf("byte %d of an unzeroed result is %#x, want the poison 0xff", i, x)
		}
	}
}
