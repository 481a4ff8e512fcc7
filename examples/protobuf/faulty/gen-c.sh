#!/bin/sh
# faulty/gen-c.sh INPUT OUTDIR — the fault demonstration of this pack for
# protoc-c: runs ../gen-c.sh, then drops the last entry of every enum's
# table of values sorted by name (NAME__enum_values_by_name[]), as a
# generator with an off-by-one in that loop would. The C still compiles;
# looking a value up by name misses one.
set -e
"$(dirname "$0")/../gen-c.sh" "$1" "$2"
for f in "$2"/*.pb-c.c; do
  awk '
    /__enum_values_by_name\[[0-9]+\] =$/ { inmap = 1; print; next }
    inmap && /^\{$/ { print; next }
    inmap && /^};$/ { inmap = 0; held = ""; print; next }
    inmap { if (held != "") print held; held = $0; next }
    { print }
  ' "$f" > "$f.tmp" && mv "$f.tmp" "$f"
done
