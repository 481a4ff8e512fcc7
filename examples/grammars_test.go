package examples_test

// The TypeScript pack's relations read seeds with the tree-sitter
// TypeScript grammar.
import _ "github.com/mcpt-tool/mcpt/syntax/tsgrammar/typescript"
