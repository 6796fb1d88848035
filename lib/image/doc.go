// Package image is jaxsh's image module: arrays saved as PNG pictures
// (SPEC §9), coloured as matplotlib's imsave colours them
// (internal/colormap), written through the thread's file policy.
//
// Members (docs/builtins.md is generated from this table):
//
//	| group | names |
//	|---|---|
//	| pictures | `save colormaps` |
package image
