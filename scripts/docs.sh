#!/usr/bin/env bash
# The API reference as DocC: a catalog per library module (Sources/<Module>/<Module>.docc), built
# with the toolchain's own docc from the modules' symbol graphs (no package dependency), warnings
# as errors, so a broken symbol link or an undocumented parameter fails.
#   scripts/docs.sh           builds the static sites into .build/docs/<Module>/ and says how to open them
#   scripts/docs.sh --check   builds them as scripts/test.sh does (the same, quieter)
# Links between modules are written as code voice (`ImageManager` in MagpieServer's pages): this
# toolchain's docc resolves symbol links within a module only.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
[ "${1:-}" = --check ] && check=1
modules=(MagpieImage Magpie MagpieServer)
out=.build/docs
graphs=$out/symbol-graphs
rm -rf "$out"
mkdir -p "$graphs"
# The modules' public symbols, extracted from the debug build the tests use (.build/debug, built
# here if it is not, nothing to do if it is) with the search paths SwiftPM compiled each module with:
# seconds, where `swift package dump-symbol-graph` compiled the package again (about 5 minutes on a
# clean clone here).
swift build --build-tests >"$out/build.log" 2>&1 || {
  tail -20 "$out/build.log" >&2
  exit 1
}
all=$out/extracted
mkdir -p "$all"
for m in "${modules[@]}"; do
  mapfile -t search < <(python3 scripts/lib/symbolgraph-args.py .build/debug.yaml "$m")
  swift-symbolgraph-extract -module-name "$m" -target "$(uname -m)-unknown-linux-gnu" "${search[@]}" \
    -minimum-access-level public -output-dir "$all" >"$out/extract-$m.log" 2>&1 || {
    echo "docs: the symbols of $m could not be extracted:" >&2
    tail -20 "$out/extract-$m.log" >&2
    exit 1
  }
done
status=0
for m in "${modules[@]}"; do
  mkdir -p "$graphs/$m"
  # The module's own graph and its extensions of other modules (Module@Other).
  cp "$all/$m.symbols.json" "$graphs/$m/"
  find "$all" -maxdepth 1 -name "$m@*.symbols.json" -exec cp {} "$graphs/$m/" \;
  if ! docc convert "Sources/$m/$m.docc" --additional-symbol-graph-dir "$graphs/$m" \
    --fallback-display-name "$m" --fallback-bundle-identifier "org.magpie.$m" \
    --output-path "$out/$m" --transform-for-static-hosting --hosting-base-path "$m" \
    --warnings-as-errors >"$out/$m.log" 2>&1; then
    echo "docs: $m has errors (docc, warnings as errors):" >&2
    grep -A6 -E '^(error|warning)' "$out/$m.log" | sed "s|$PWD/||g" | head -80 >&2
    status=1
  fi
done
[ "$status" = 0 ] || exit 1
if [ "$check" = 1 ]; then
  echo "docs: ${modules[*]} built with no warning"
else
  echo "docs: built into $out/<Module>/; to read them:"
  echo "  python3 -m http.server -d $out 8000   # then http://127.0.0.1:8000/MagpieImage/documentation/magpieimage/"
fi
