#!/bin/sh
# gen-go.sh INPUT OUTDIR — the transpiler under test for mcpt: protoc with
# protoc-gen-go (installed by `go install`, on PATH or in $(go env
# GOPATH)/bin), writing OUTDIR/NAME.pb.go. Imports are looked up beside the
# input and in the directories of PROTO_PATH (separated by colons). Every
# file gets a Go import path of its own unless it declares a go_package.
# protoc exits 1 when it rejects its input, which mcpt reads as a rejection.
set -e
dir=$(dirname "$1")
name=$(basename "$1")
PATH=$PATH:${GOBIN:-${GOPATH:-$HOME/go}/bin}
set -- "$1" "$2" -I "$dir" "--go_opt=M$name=example.com/pb/input"
old=$IFS
IFS=:
for d in $PROTO_PATH; do
  IFS=$old
  set -- "$@" -I "$d"
  for f in "$d"/*.proto; do
    b=${f##*/}  # no basename: a fork per file of the path is slow
    [ -e "$f" ] && [ "$b" != "$name" ] &&
      set -- "$@" "--go_opt=M$b=example.com/pb/${b%.proto}"
  done
  IFS=:
done
IFS=$old
in=$1 out=$2
shift 2
exec "${PROTOC:-protoc}" "$@" --go_opt=paths=source_relative --go_out="$out" "$in"
