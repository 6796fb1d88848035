// Package jaxsh embeds the jaxsh interpreter in Go programs: it runs jaxsh
// scripts (Starlark with the array dialect of SPEC §2) and returns their
// globals.
package jaxsh

import (
	"context"
	"io"
	"os"

	_ "github.com/jaxsh/jaxsh/cpu" // registers the cpu backend
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"go.starlark.net/starlark"
)

// Options configure an Interpreter. Zero values mean os.Stdout, os.Stderr and
// no extra predeclared names.
type Options struct {
	Stdout io.Writer
	Stderr io.Writer
	// Globals are predeclared in every module the interpreter runs, next to
	// jaxsh's own builtins; they win on a clash.
	Globals starlark.StringDict
	// LogCompiles writes one line to Stderr per compilation of a jitted
	// function, saying why the compile cache missed.
	LogCompiles bool
}

// An Interpreter runs jaxsh programs. Modules loaded with load() are cached
// for the interpreter's lifetime.
type Interpreter struct {
	opts Options
}

// New returns an interpreter configured by opts.
func New(opts Options) *Interpreter {
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	return &Interpreter{opts: opts}
}

// RunFile runs the script at path with argv = [path] + args and returns its
// globals. Cancelling ctx stops the script at its next step with an error.
func (in *Interpreter) RunFile(ctx context.Context, path string, args []string) (starlark.StringDict, error) {
	return in.run(ctx, path, nil, args)
}

// RunString runs code as a script named name (used in error positions), with
// argv = [name] + args.
func (in *Interpreter) RunString(ctx context.Context, name, code string, args []string) (starlark.StringDict, error) {
	return in.run(ctx, name, code, args)
}

func (in *Interpreter) run(ctx context.Context, name string, src any, args []string) (starlark.StringDict, error) {
	argv := make([]starlark.Value, 0, len(args)+1)
	argv = append(argv, starlark.String(name))
	for _, a := range args {
		argv = append(argv, starlark.String(a))
	}
	globals := starlark.StringDict{"argv": starlark.NewList(argv)}
	for k, v := range in.opts.Globals {
		globals[k] = v
	}
	session := jstarlark.NewSession(in.opts.Stdout, globals)
	if in.opts.LogCompiles {
		session.LogCompiles(in.opts.Stderr)
	}
	thread := session.NewThread("main")

	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			thread.Cancel(context.Cause(ctx).Error())
		case <-done:
		}
	}()
	return session.ExecFile(thread, name, src)
}

// FormatError renders an error returned by RunFile or RunString as the jaxsh
// command prints it: FILE:LINE:COL: message for syntax errors, a Starlark
// traceback for runtime errors.
func FormatError(err error) string { return jstarlark.FormatError(err) }
