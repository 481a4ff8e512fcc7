#!/bin/sh
# faulty/gen-c.sh INPUT OUTDIR — the fault demonstration of this pack for
# protoc-c: runs ../gen-c.sh, then drops the last entry of every enum's
# table of values sorted by name (NAME__enum_values_by_name[]), as a
# generator with an off-by-one in that loop would. The C still compiles;
# looking a value up by name misses one.
#
# The fault costs one process beyond the generator's own (awk, which
# rewrites the file in place once it has read it all).
set -e
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
"$here/../gen-c.sh" "$1" "$2"
for f in "$2"/*.pb-c.c; do
  awk '
    /__enum_values_by_name\[[0-9]+\] =$/ { inmap = 1; keep(); next }
    inmap && /^\{$/ { keep(); next }
    inmap && /^};$/ { inmap = 0; held = ""; keep(); next }
    inmap { if (held != "") line[n++] = held; held = $0; next }
    { keep() }
    function keep() { line[n++] = $0 }
    END { for (i = 0; i < n; i++) print line[i] > FILENAME }
  ' "$f"
done
