#!/bin/sh
# gen.sh INPUT OUTDIR — the transpiler under test for mcpt: the FlatBuffers
# compiler's C++ and TypeScript generators, writing OUTDIR/cpp and OUTDIR/ts.
# Includes are looked up in the include directory next to this script and
# in the directories of FBS_PATH (separated by colons).
# flatc exits 1 when it rejects its input, which mcpt reads as a rejection.
set -e
here=$(dirname "$0")
flatc=${FLATC:-flatc}
in=$1 out=$2
set -- -I "$here/include"
old=$IFS
IFS=:
for d in $FBS_PATH; do
  set -- "$@" -I "$d"
done
IFS=$old
"$flatc" "$@" --cpp -o "$out/cpp" "$in"
"$flatc" "$@" --ts -o "$out/ts" "$in"
