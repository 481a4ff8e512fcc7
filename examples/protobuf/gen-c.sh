#!/bin/sh
# gen-c.sh INPUT OUTDIR — the transpiler under test for mcpt: protoc-c
# (protobuf-c), writing OUTDIR/NAME.pb-c.h and NAME.pb-c.c. Imports are
# looked up beside the input and in the directories of PROTO_PATH
# (separated by colons). protoc-c exits 1 when it rejects its input, which
# mcpt reads as a rejection.
set -e
dir=$(dirname "$1")
set -- "$1" "$2" -I "$dir"
old=$IFS
IFS=:
for d in $PROTO_PATH; do
  set -- "$@" -I "$d"
done
IFS=$old
in=$1 out=$2
shift 2
exec "${PROTOC_C:-protoc-c}" "$@" --c_out="$out" "$in"
