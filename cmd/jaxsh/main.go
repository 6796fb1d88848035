// Command jaxsh runs jaxsh scripts: Starlark with NumPy-style arrays and JAX's
// programming model.
//
//	jaxsh                       the REPL (statements from stdin when it is not a terminal)
//	jaxsh FILE.star [ARGS...]   run a script; argv is [FILE.star, ARGS...]
//	jaxsh -c 'CODE' [ARGS...]   run CODE
//	jaxsh run FILE.jaxsh-export [INPUT.npy ...] [-o OUT.npy]
//	                            call an exported artifact on .npy inputs
//	jaxsh inspect FILE          print an artifact's metadata and program
//
// Exit status: 0 on success, 1 on any error in the program (the message or
// traceback goes to stderr; for the REPL, only with piped input), 2 on bad
// command-line usage.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"

	"github.com/jaxsh/jaxsh"
	"github.com/jaxsh/jaxsh/repl"
)

// version is the jaxsh release; -ldflags "-X main.version=..." overrides it.
var version = "0.1.0-dev"

const usage = `usage: jaxsh [flags]
       jaxsh [flags] FILE.star [ARGS...]
       jaxsh [flags] -c CODE [ARGS...]
       jaxsh [flags] run FILE.jaxsh-export [INPUT.npy ...] [-o OUT.npy|OUT.npz]
       jaxsh inspect FILE.jaxsh-export

Runs jaxsh: Starlark with NumPy-style arrays (see the README). With no
script, the REPL: on a terminal with line editing, history and Tab
completion; from a pipe it runs the statements it reads, echoing the
values of expressions. argv holds the script path (or "-c") followed by ARGS.

Flags:
  -c CODE            run CODE instead of a file
  --device DEVICE    the default device, where arrays are created: cpu,
                     cpu:N, cuda or cuda:N (default cuda:0 where a CUDA
                     device is found, else cpu:0)
  --cpu-devices N    run on N logical CPU devices, cpu:0 ... cpu:N-1,
                     sharing the machine's cores (default: the
                     JAXSH_CPU_DEVICES environment variable, else 1)
  --log-compiles     print one line on stderr per compilation of a jitted
                     function, saying why the compile cache missed
  --version          print the version and exit
  --help             print this help and exit

An artifact is what Exported.serialize() returns, saved to a file. run
calls it on the arrays of the .npy inputs and prints its outputs, or
writes them with -o (one output to .npy, several to .npz as out_0, ...).

Examples:
  jaxsh                                   start the REPL
  echo 'jnp.arange(3) * 2' | jaxsh        prints Array([0, 2, 4], dtype=int32)
  jaxsh examples/tour.star
  jaxsh -c 'print(2 ** 10)'
  jaxsh --cpu-devices 2 -c 'print(device_put(1.0, "cpu:1").device)'
  jaxsh script.star --input data.json

Exit status: 0 on success, 1 on an error in the program (for the REPL,
only with piped input), 2 on bad usage.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("jaxsh", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	code := fs.String("c", "", "")
	showVersion := fs.Bool("version", false, "")
	help := fs.Bool("help", false, "")
	logCompiles := fs.Bool("log-compiles", false, "")
	device := fs.String("device", "", "")
	cpuDevices := fs.Int("cpu-devices", 0, "")
	fs.BoolVar(help, "h", false, "")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "jaxsh: %v\n\n%s", err, usage)
		return 2
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	codeGiven := given["c"]
	switch {
	case *help:
		fmt.Fprint(stdout, usage)
		return 0
	case *showVersion:
		fmt.Fprintf(stdout, "jaxsh %s (%s %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
		return 0
	}

	if given["cpu-devices"] && *cpuDevices < 1 {
		fmt.Fprintf(stderr, "jaxsh: --cpu-devices %d: want at least 1 device\n", *cpuDevices)
		return 2
	}
	if given["device"] && *device == "" {
		fmt.Fprintf(stderr, "jaxsh: --device: want cpu, cpu:N, cuda or cuda:N\n")
		return 2
	}
	opts := jaxsh.Options{Stdout: stdout, Stderr: stderr, LogCompiles: *logCompiles,
		CPUDevices: *cpuDevices, Device: *device}
	if err := opts.SetUpDevices(); err != nil {
		fmt.Fprintf(stderr, "jaxsh: %v\n", err)
		return 2
	}
	if !codeGiven && fs.NArg() == 0 {
		// The REPL handles Ctrl-C itself: it stops the running statement.
		err := repl.Run(repl.Config{Options: opts, Stdin: stdin, Version: version})
		switch {
		case errors.Is(err, repl.ErrFailed):
			return 1
		case err != nil:
			fmt.Fprintf(stderr, "jaxsh: %v\n", err)
			return 1
		}
		return 0
	}

	// The first Ctrl-C stops the script and its computations (they stop
	// within milliseconds); should anything still hold on, a second one
	// abandons it and exits at once.
	ctx, interrupt := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() {
		if _, ok := <-sigs; !ok {
			return
		}
		interrupt(errKeyboardInterrupt)
		<-sigs
		fmt.Fprintln(stderr, "jaxsh: interrupted again: abandoning the computations still running")
		os.Exit(130)
	}()
	if !codeGiven && (fs.Arg(0) == "run" || fs.Arg(0) == "inspect") {
		return artifactCommand(ctx, jaxsh.New(opts), fs.Args(), stdout, stderr)
	}
	interp := jaxsh.New(opts)
	var err error
	if codeGiven {
		_, err = interp.RunString(ctx, "-c", *code, fs.Args())
	} else {
		path := fs.Arg(0)
		if _, statErr := os.Stat(path); statErr != nil {
			fmt.Fprintf(stderr, "jaxsh: cannot open script %s: %v\n", path, statErr.(*os.PathError).Err)
			return 2
		}
		_, err = interp.RunFile(ctx, path, fs.Args()[1:])
	}
	if err != nil {
		fmt.Fprintln(stderr, jaxsh.FormatError(err))
		if errors.Is(context.Cause(ctx), errKeyboardInterrupt) {
			fmt.Fprintln(stderr, "KeyboardInterrupt")
			return 130 // as a shell reports death by SIGINT, and Python exits
		}
		return 1
	}
	return 0
}

// artifactCommand runs `jaxsh run` and `jaxsh inspect`.
func artifactCommand(ctx context.Context, interp *jaxsh.Interpreter, args []string, stdout, stderr io.Writer) int {
	cmd, rest := args[0], args[1:]
	out := ""
	var files []string
	for i := 0; i < len(rest); i++ {
		if cmd == "run" && (rest[i] == "-o" || rest[i] == "--o") {
			if i+1 >= len(rest) {
				fmt.Fprintf(stderr, "jaxsh run: -o needs a file name\n")
				return 2
			}
			out = rest[i+1]
			i++
			continue
		}
		files = append(files, rest[i])
	}
	if len(files) == 0 || (cmd == "inspect" && len(files) != 1) {
		fmt.Fprintf(stderr, "jaxsh %s: want an artifact file\n\n%s", cmd, usage)
		return 2
	}
	if cmd == "inspect" {
		data, err := os.ReadFile(files[0])
		if err != nil {
			fmt.Fprintf(stderr, "jaxsh inspect: %v\n", err)
			return 1
		}
		text, err := jaxsh.InspectArtifact(data)
		if err != nil {
			fmt.Fprintf(stderr, "jaxsh inspect: %s: %v\n", files[0], err)
			return 1
		}
		fmt.Fprint(stdout, text)
		return 0
	}
	if err := interp.RunArtifact(ctx, files[0], files[1:], out); err != nil {
		fmt.Fprintf(stderr, "jaxsh run: %s\n", jaxsh.FormatError(err))
		return 1
	}
	return 0
}

// errKeyboardInterrupt is the cause of a script run stopped by Ctrl-C.
var errKeyboardInterrupt = errors.New("KeyboardInterrupt")
