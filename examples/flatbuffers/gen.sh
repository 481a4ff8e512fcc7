#!/bin/sh
# gen.sh INPUT OUTDIR — the transpiler under test for mcpt: the FlatBuffers
# compiler's C++ and TypeScript generators, writing OUTDIR/cpp and OUTDIR/ts.
# Includes are looked up in the include directory next to this script.
# flatc exits 1 when it rejects its input, which mcpt reads as a rejection.
set -e
here=$(dirname "$0")
flatc=${FLATC:-flatc}
"$flatc" -I "$here/include" --cpp -o "$2/cpp" "$1"
"$flatc" -I "$here/include" --ts -o "$2/ts" "$1"
