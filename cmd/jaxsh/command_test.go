package main

import (
	"os"
	"testing"
)

// asCommandEnv makes this test binary behave as the jaxsh command, so that
// tests can run jaxsh as a process (on a pseudo-terminal, or to send it
// signals) without building it with the go tool first; under -race the
// child is race-checked too.
const asCommandEnv = "JAXSH_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asCommandEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
