#!/usr/bin/env bash
# Installs the Debian packages Magpie needs to build and test. Idempotent: quiet when all are present.
# python3-venv holds moto's S3 server for the S3 tests (scripts/with-moto.sh). nginx is for the
# tests that check conditional requests against a real server, nginx and haproxy for the fleet tests (balancers in front of magpie-server processes), and nginx for the network
# benchmark. Usage: scripts/bootstrap.sh [--bench]   (--bench adds the benchmark baselines:
# libvips-tools, libjpeg-turbo-progs, GNU time, libssl-dev for OpenSSL's MD5, and cwebp/dwebp (webp)
# and avifdec (libavif-bin) for the WebP and AVIF comparisons, libvips-dev and valgrind for the
# in-process thumbnail benchmark, wrk for the service benchmark, heif-enc, cjxl and
# rsvg-convert for the formats benchmark, gifsicle for the animation benchmark)
set -euo pipefail

packages=(libturbojpeg0-dev libjpeg62-turbo-dev libpng-dev libgif-dev zlib1g-dev libwebp-dev libavif-dev liblcms2-dev
  libtiff-dev libheif-dev libjxl-dev librsvg2-2 libimagequant-dev libsqlite3-dev cmake pkg-config
  python3 python3-venv nginx haproxy)
if [ "${1:-}" = "--bench" ]; then
  packages+=(libvips-tools libjpeg-turbo-progs time libssl-dev webp libavif-bin libvips-dev valgrind wrk
    libheif-examples libjxl-tools librsvg2-bin gifsicle)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "bootstrap: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
