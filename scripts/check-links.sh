#!/usr/bin/env bash
# Every relative link of README.md and docs/*.md resolves to a file or folder of the repository
# (links to other sites and to anchors within a page are not followed). Exits 1, naming each
# broken link, when one does not.
set -euo pipefail
cd "$(dirname "$0")/.."
broken=0
for page in README.md docs/*.md; do
    dir=$(dirname "$page")
    # [text](target): targets without a scheme; an anchor after the path is dropped.
    while IFS= read -r target; do
        path=${target%%#*}
        [ -z "$path" ] && continue
        if [ ! -e "$dir/$path" ]; then
            printf '%s: broken link %s\n' "$page" "$target" >&2
            broken=1
        fi
    done < <(grep -oE '\]\([^)[:space:]]+\)' "$page" | sed -E 's/^\]\(//; s/\)$//' | grep -vE '^[a-z][a-z0-9+.-]*:' || true)
done
[ "$broken" = 0 ] && printf 'links: every relative link of README.md and docs/ resolves\n'
exit "$broken"
