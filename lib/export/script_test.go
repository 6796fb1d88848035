package export_test

import (
	"flag"
	"testing"

	"github.com/jaxsh/jaxsh/internal/scripttest"
)

var update = flag.Bool("update", false, "rewrite the golden .out files of testdata/export")

// The export script tests: each testdata/export/NAME.star runs as a script
// and its output, with the error that ended it if any, must equal NAME.out
// exactly (go test ./lib/export -run TestExportScripts -update rewrites them).
func TestExportScripts(t *testing.T) {
	scripttest.Golden(t, "testdata/export/*.star", *update, false)
}
