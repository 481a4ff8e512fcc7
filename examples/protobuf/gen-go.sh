#!/bin/sh
# gen-go.sh INPUT OUTDIR — the transpiler under test for mcpt: protoc with
# protoc-gen-go (installed by `go install`, on PATH or in $(go env
# GOPATH)/bin), writing OUTDIR/NAME.pb.go. Imports are looked up beside the
# input, in the directories of PROTO_PATH (separated by colons), then in
# this directory, whose seeds the relations that refer to another file's
# types import (add-remote-field). Every file gets a Go import path of its
# own (example.com/pb/NAME, a package of its own).
# protoc exits 1 when it rejects its input, which mcpt reads as a rejection.
#
# GEN_GO_PLUGIN=go-grpc runs protoc-gen-go-grpc instead (OUTDIR/NAME_grpc.pb.go,
# the Go of the services); GEN_GO_PLUGINS=grpc passes plugins=grpc to
# protoc-gen-go (github.com/golang/protobuf's own generator writes the
# services into NAME.pb.go then).
#
# gen-go.sh --version prints the release of that protoc-gen-go: what its
# own --version prints (google.golang.org/protobuf's since v1.25), else
# what `go version -m` reads in the binary: the version of
# google.golang.org/protobuf, whose generator it is or runs
# (github.com/golang/protobuf's protoc-gen-go runs it from v1.4 on: v1.4.3
# builds v1.23.0's, v1.5.4 v1.33.0's), else the version of
# github.com/golang/protobuf, whose own generator it is (v1.3 and before:
# below v1.20, where google.golang.org/protobuf's releases start).
set -e
PATH=$PATH:${GOBIN:-${GOPATH:-$HOME/go}/bin}
plugin=${GEN_GO_PLUGIN:-go}
case $plugin in go|go-grpc) ;; *) echo "gen-go.sh: GEN_GO_PLUGIN is go or go-grpc, not $plugin" >&2; exit 2 ;; esac
if [ "$1" = --version ]; then
  bin=$(command -v "protoc-gen-$plugin") || { echo "gen-go.sh: no protoc-gen-$plugin on PATH" >&2; exit 1; }
  out=$("protoc-gen-$plugin" --version </dev/null 2>&1) && { echo "$out"; exit 0; }
  info=$(go version -m "$bin") || { echo "gen-go.sh: $bin has no --version and go version -m cannot read it" >&2; exit 1; }
  own=$(echo "$info" | awk '$1 == "mod" && $2 == "github.com/golang/protobuf" { print $3 }')
  v2=$(echo "$info" | awk '($1 == "mod" || $1 == "dep") && $2 == "google.golang.org/protobuf" { print $3 }')
  if [ -n "$v2" ]; then
    echo "protoc-gen-go $v2${own:+ (github.com/golang/protobuf $own)}"
  elif [ -n "$own" ]; then
    echo "protoc-gen-go $own (github.com/golang/protobuf)"
  else
    echo "gen-go.sh: $bin is built from neither google.golang.org/protobuf nor github.com/golang/protobuf" >&2
    exit 1
  fi
  exit 0
fi
dir=$(dirname "$1")
name=$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
set -- "$1" "$2" -I "$dir" "--${plugin}_opt=M$name=example.com/pb/input"
path=$PROTO_PATH:$here
old=$IFS
IFS=:
for d in $path; do
  IFS=$old
  if [ -z "$d" ]; then IFS=:; continue; fi
  set -- "$@" -I "$d"
  for f in "$d"/*.proto; do
    b=${f##*/}  # no basename: a fork per file of the path is slow
    [ -e "$f" ] && [ "$b" != "$name" ] &&
      set -- "$@" "--${plugin}_opt=M$b=example.com/pb/${b%.proto}"
  done
  IFS=:
done
IFS=$old
in=$1 out=$2
shift 2
[ -n "$GEN_GO_PLUGINS" ] && set -- "$@" "--go_opt=plugins=$GEN_GO_PLUGINS"
exec "${PROTOC:-protoc}" "$@" "--${plugin}_opt=paths=source_relative" "--${plugin}_out=$out" "$in"
