module github.com/jaxsh/jaxsh

go 1.26

require (
	github.com/chzyer/readline v1.5.1
	github.com/ebitengine/purego v0.11.3
	go.starlark.net v0.0.0-20260908191801-89a6a09411d5
)

require golang.org/x/sys v0.42.0
