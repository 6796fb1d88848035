package starlark_test

import "testing"

// TestScriptsPortable runs the script tests again with fused kernels on
// the portable block machine (JAXSH_CPU_CODEGEN=0) instead of native
// code, so both paths meet every script's expectations.
func TestScriptsPortable(t *testing.T) {
	t.Setenv("JAXSH_CPU_CODEGEN", "0")
	TestScripts(t)
}
