//go:build !typescript

package main

// typescriptLinked is whether the binary links the TypeScript parser: the
// [typescript] condition of the scripts.
const typescriptLinked = false
