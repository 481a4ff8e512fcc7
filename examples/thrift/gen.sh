#!/bin/sh
# gen.sh INPUT OUTDIR — the transpiler under test for mcpt: the Apache Thrift
# compiler's C++ and Python generators, writing OUTDIR/cpp and OUTDIR/py.
# Includes are looked up in the include directory next to this script.
# thrift exits 1 when it rejects its input, which mcpt reads as a rejection.
set -e
here=$(dirname "$0")
thrift=${THRIFT:-thrift}
mkdir -p "$2/cpp" "$2/py"
"$thrift" -I "$here/include" --gen cpp -out "$2/cpp" "$1"
"$thrift" -I "$here/include" --gen py -out "$2/py" "$1"
