#!/bin/sh
# faulty/gen-go.sh INPUT OUTDIR — the fault demonstration of this pack: runs
# ../gen-go.sh, then drops the last entry of every enum's name map
# (NAME_name = map[int32]string{…}) from the Go it wrote, as a generator
# with an off-by-one in that loop would. The Go still compiles; String()
# of the last value prints its number.
#
# The fault costs one process beyond the generator's own (awk, which
# rewrites the file in place once it has read it all), so that a faulty
# campaign spends its time on what mcpt does with the findings, not on
# applying the fault.
set -e
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
"$here/../gen-go.sh" "$1" "$2"
for f in "$2"/*.pb.go; do
  awk '
    /_name = map\[int32\]string\{$/ { inmap = 1; keep(); next }
    inmap && /^\t?}$/ { inmap = 0; held = ""; keep(); next }
    inmap { if (held != "") line[n++] = held; held = $0; next }
    { keep() }
    function keep() { line[n++] = $0 }
    END { for (i = 0; i < n; i++) print line[i] > FILENAME }
  ' "$f"
done
