#!/usr/bin/env bash
# The C core's rooms (docs/architecture.md, "The C core's rooms"), checked: CSources/ holds only
# internal.h and the room folders; codecs/ a folder per format (and the quantiser the palette
# encoders share); every private header is included by its path from CSources/ and sits beside
# the code that defines it; CMakeLists.txt lists every source; and no two files of different rooms
# call each other (from the symbols of the objects in BUILD_DIR, default build/).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
fail=0
bad() { printf 'rooms: %s\n' "$*" >&2; fail=1; }

rooms="codecs colour core effects probe resample util"
for entry in CSources/*; do
  name=${entry#CSources/}
  if [ -d "$entry" ]; then
    case " $rooms " in *" $name "*) ;; *) bad "CSources/$name/ is not a room ($rooms)" ;; esac
  elif [ "$name" != internal.h ]; then
    bad "CSources/$name sits at the top: only internal.h does; a header goes beside its code"
  fi
done
for entry in CSources/codecs/*; do
  [ -d "$entry" ] || bad "$entry is a file: each format has its folder under codecs/"
done

# Quoted includes: internal.h, the public magpie.h, or a path from CSources/ that exists.
while IFS=: read -r file line text; do
  inc=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$text")
  case "$inc" in
    internal.h | magpie.h) ;;
    */*) [ -f "CSources/$inc" ] || bad "$file:$line includes \"$inc\", which is not under CSources/" ;;
    *) bad "$file:$line includes \"$inc\": name a private header by its path from CSources/ (\"core/job.h\")" ;;
  esac
done < <(grep -rnE '^#include "' CSources Tests/fuzz --include='*.c' --include='*.h')

# Every source is built by CMake (SwiftPM takes CSources/ whole, so a file CMake misses would
# build in one and not the other).
while read -r src; do
  grep -q "$src" CMakeLists.txt || bad "$src is not in CMakeLists.txt's MAGPIE_SOURCES"
done < <(find CSources -name '*.c' | sort)

# Calls between rooms go one way: a file never calls into a room that calls it back.
objects=$(find "$build/CMakeFiles/magpie_static.dir/CSources" -name '*.c.o' 2>/dev/null | sort || true)
if [ -z "$objects" ]; then
  bad "no objects under $build/CMakeFiles/magpie_static.dir: build the C core first"
else
  mutual=$(python3 - $objects <<'EOF'
import collections, subprocess, sys
defined, wanted = {}, collections.defaultdict(set)
for obj in sys.argv[1:]:
    name = obj.split("/CSources/", 1)[1][: -len(".c.o")]
    for line in subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRC":
            defined[parts[2]] = name
        elif len(parts) == 2 and parts[0] == "U":
            wanted[name].add(parts[1])
def room(f):
    parts = f.split("/")
    return "/".join(parts[:2]) if parts[0] == "codecs" else parts[0]
calls = collections.defaultdict(dict)
for f, symbols in wanted.items():
    for s in sorted(symbols):
        g = defined.get(s)
        if g and room(g) != room(f):
            calls[f].setdefault(g, s)
# A header's functions are defined in its own room (it sits beside the code that defines it);
# core/codec.h is the codec table's contract, which every codec folder implements.
import glob, re
for h in sorted(glob.glob("CSources/*/**/*.h", recursive=True)):
    name = h[len("CSources/"):]
    if name == "core/codec.h":
        continue
    for fn in re.findall(r"MAGPIE_HIDDEN[^;{(]*?\b(magpie__\w+)\s*\(", open(h).read()):
        g = defined.get(fn)
        if g and room(g) != room(name):
            print(f"{name} declares {fn}, defined in {g}.c of another room")
for f in sorted(calls):
    for g in sorted(calls[f]):
        if f < g and f in calls.get(g, {}):
            print(f"{f}.c calls {g}.c ({calls[f][g]}) and {g}.c calls {f}.c ({calls[g][f]})")
EOF
)
  [ -z "$mutual" ] || bad "a header away from its code, or files of two rooms that call each other:"$'\n'"$mutual"
fi

[ "$fail" = 0 ] && printf 'rooms: CSources/ keeps its rooms (%s files)\n' "$(find CSources -name '*.[ch]' | wc -l)"
exit "$fail"
