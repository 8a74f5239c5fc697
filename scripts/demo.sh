#!/usr/bin/env bash
# The main job on a fresh machine: install what is needed, build the CLI in release mode and run
# `magpie demo`: a loopback HTTP server inside the process serves images it draws, and a list of
# URLs with many duplicates goes through the whole pipeline (memory and disk caches, coalesced
# downloads, shrink-on-load thumbnails) three times, cold, warm in memory and warm on disk.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/swiftbuild.sh
scripts/bootstrap.sh
rm -f .build/*/release/description.json  # a stale one makes SwiftPM fail with "unknown build description"
# swift-nio, BoringSSL and AsyncHTTPClient in release mode: 5 minutes measured here, up to 15 seen.
swift_build "magpie in release mode" "5 to 15" -c release --product magpie
bin=$(swift build -c release --show-bin-path)/magpie
"$bin" demo "$@"
