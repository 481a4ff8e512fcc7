//go:build typescript

package main

// The tree-sitter TypeScript grammar (`syntax: typescript`), which the
// TypeScript pack's relations parse seeds with. It is C compiled through
// cgo and nearly doubles a cold build, so only `-tags typescript` links it.
import _ "github.com/mcpt-tool/mcpt/syntax/tsgrammar/typescript"
