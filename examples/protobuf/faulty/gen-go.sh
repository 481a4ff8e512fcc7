#!/bin/sh
# faulty/gen-go.sh INPUT OUTDIR — the fault demonstration of this pack: runs
# ../gen-go.sh, then drops the last entry of every enum's name map
# (NAME_name = map[int32]string{…}) from the Go it wrote, as a generator
# with an off-by-one in that loop would. The Go still compiles; String()
# of the last value prints its number.
set -e
"$(dirname "$0")/../gen-go.sh" "$1" "$2"
for f in "$2"/*.pb.go; do
  awk '
    /_name = map\[int32\]string\{$/ { inmap = 1; print; next }
    inmap && /^\t?}$/ { inmap = 0; held = ""; print; next }
    inmap { if (held != "") print held; held = $0; next }
    { print }
  ' "$f" > "$f.tmp" && mv "$f.tmp" "$f"
done
