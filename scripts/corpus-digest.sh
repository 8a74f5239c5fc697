#!/usr/bin/env bash
# What the C core makes of every file of ../shared/corpus and ../shared/corpus-webp-avif, one line
# per file (Tests/c/corpus_digest.c): the sniff, the probe, decodes and encodings as MD5s, statuses
# and error details. A change meant to keep output bit for bit the same prints the same lines:
#   scripts/corpus-digest.sh > after.txt; scripts/corpus-digest.sh --commit BASE > before.txt
# Usage: scripts/corpus-digest.sh [--commit REV]  (default: the working tree, built in build-digest)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
src=$root
out=$root/build-digest
parts=$(mktemp -d)
cleanup() { rm -rf "$parts"; }
if [ "${1:-}" = --commit ]; then
    out=$(mktemp -d)
    git worktree add --detach "$out/tree" "$2" >/dev/null 2>&1
    src=$out/tree
    cleanup() { rm -rf "$parts"; git -C "$root" worktree remove --force "$out/tree" >/dev/null 2>&1 || true; rm -rf "$out"; }
fi
trap cleanup EXIT
cmake -S "$src" -B "$out/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$out/build" -j"$(nproc)" --target magpie >/dev/null
cc -std=c11 -O1 -Wall -Wextra -I"$src/include" "$root/Tests/c/corpus_digest.c" -L"$out/build" -lmagpie \
    -Wl,-rpath,"$out/build" -o "$out/corpus_digest"
cd ..
dirs=()
for dir in shared/corpus shared/corpus-webp-avif; do
    if [ -d "$dir" ]; then dirs+=("$dir"); else echo "corpus-digest: ../$dir is absent, skipped" >&2; fi
done
[ ${#dirs[@]} -gt 0 ] || { echo "corpus-digest: no corpus found" >&2; exit 1; }
# Two processes at a time, each writing whole lines into a file of its own; sorted by path after.
find "${dirs[@]}" -type f ! -name '*.tsv' ! -name '*.md' ! -name '*.py' -print0 |
    xargs -0 -n 40 -P "$(nproc)" sh -c 'exec "$0" "$@" > "$(mktemp -p "'"$parts"'")"' "$out/corpus_digest" 2>/dev/null
cat "$parts"/* | LC_ALL=C sort
