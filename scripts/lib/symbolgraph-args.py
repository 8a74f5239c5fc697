#!/usr/bin/env python3
"""Prints, one per line, the search-path arguments SwiftPM compiled a module with (from the debug
build's manifest, .build/debug.yaml), in the form swift-symbolgraph-extract takes them: the module's
public symbols are then extracted from the build the tests used, in seconds, instead of building the
package again with symbol-graph flags (swift package dump-symbol-graph, minutes).
Usage: symbolgraph-args.py BUILD_MANIFEST MODULE"""
import json
import re
import sys

manifest, module = sys.argv[1], sys.argv[2]
text = open(manifest, encoding="utf-8").read()
start = text.find(f'"C.{module}-')
if start < 0:
    sys.exit(f"symbolgraph-args: no compile command for {module} in {manifest}")
match = re.search(r"^    args: (\[.*\])$", text[start:], re.M)
if not match:
    sys.exit(f"symbolgraph-args: no arguments for {module} in {manifest}")
args = json.loads(match.group(1))
out = []
i = 0
while i < len(args):
    a = args[i]
    if a in ("-I", "-F") and i + 1 < len(args):
        out += [a, args[i + 1]]
        i += 2
        continue
    if a == "-Xcc" and i + 1 < len(args):
        out += [a, args[i + 1]]
        i += 2
        continue
    if a.startswith("-I") and len(a) > 2:
        out.append(a)
    i += 1
print("\n".join(out))
