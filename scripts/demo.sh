#!/usr/bin/env bash
# The main job on a fresh machine: install what is needed, build the CLI in release mode and make
# an upright 256-pixel thumbnail of the repository's own fixture (then describe both files).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
swift build -c release --product magpie 2>&1 | tail -1
bin=$(swift build -c release --show-bin-path)/magpie
out=${1:-/tmp/magpie-demo-thumb.jpg}
"$bin" thumb fixtures/magpie-demo.jpg -s 256 -o "$out"
"$bin" info fixtures/magpie-demo.jpg "$out"
echo "thumbnail written to $out"
