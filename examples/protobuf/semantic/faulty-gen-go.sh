#!/bin/sh
# faulty-gen-go.sh FAULT INPUT OUTDIR — the fault demonstration of the
# semantic checker go-probe: runs ../gen-go.sh, then rewrites the Go it
# wrote as a protoc-gen-go with a fault of the kind its releases had. The
# Go still compiles and treats every field alike; only building it and
# asking protoreflect shows the fault.
#   deprecated-getters  the getter of a deprecated field has no
#                       "Deprecated:" comment (the struct field keeps it)
#   default-base32      an integer default is written in base 32:
#                       int32(18) for 40, as protoc-gen-go once wrote enum
#                       defaults of another package
set -e
fault=$1
shift
case $fault in
deprecated-getters | default-base32) ;;
*)
  echo "faulty-gen-go.sh: unknown fault '$fault' (deprecated-getters, default-base32)" >&2
  exit 2
  ;;
esac
"$(dirname "$0")/../gen-go.sh" "$1" "$2"
for f in "$2"/*.pb.go; do
  case $fault in
  deprecated-getters)
    awk '
      held != "" && /^func \(x \*[A-Za-z0-9_]+\) Get/ { held = ""; print; next }
      held != "" { print held; held = "" }
      /^\/\/ Deprecated: Marked as deprecated in / { held = $0; next }
      { print }
      END { if (held != "") print held }
    ' "$f" >"$f.tmp"
    ;;
  default-base32)
    awk '
      function base32(n,   s, neg) {
        neg = n < 0; if (neg) n = -n
        s = ""
        do { s = substr("0123456789abcdefghijklmnopqrstuv", n % 32 + 1, 1) s; n = int(n / 32) } while (n > 0)
        return (neg ? "-" : "") s
      }
      /^\tDefault_[A-Za-z0-9_]+ += u?int(32|64)\(-?[0-9]+\)$/ {
        lp = index($0, "("); rp = index($0, ")")
        print substr($0, 1, lp) base32(substr($0, lp + 1, rp - lp - 1) + 0) ")"
        next
      }
      { print }
    ' "$f" >"$f.tmp"
    ;;
  esac
  mv "$f.tmp" "$f"
done
