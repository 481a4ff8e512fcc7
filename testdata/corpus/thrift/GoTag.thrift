struct Foo {
  1: required string bar (go.tag = "json:\"baz\"")
}
