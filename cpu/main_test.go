package cpu

import (
	"flag"
	"os"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// Every test runs with unzeroed results poisoned: a loop kernel that left
// an element unwritten would show it in the values the tests check. Not
// when benchmarks run: poisoning is a pass over every result.
func TestMain(m *testing.M) {
	flag.Parse()
	bench := flag.Lookup("test.bench")
	poisonUninitialized = bench == nil || bench.Value.String() == ""
	os.Exit(m.Run())
}

// The poison itself, so that a broken hook cannot pass silently.
func TestUninitializedResultsArePoisoned(t *testing.T) {
	if !poisonUninitialized {
		t.Skip("benchmarks are running: results are not poisoned")
	}
	b, _ := newUninitializedBuffer(testDevice().(*Device), trace.AVal{Shape: []int{uninitializedMin}, DType: trace.Uint8})
	for i, x := range b.data {
		if x != 0xFF {
			t.Fatalf("byte %d of an unzeroed result is %#x, want the poison 0xff", i, x)
		}
	}
}
