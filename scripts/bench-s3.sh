#!/usr/bin/env bash
# S3 benchmark: a 1 MB JPEG stored in moto's S3 server (scripts/with-moto.sh's virtualenv) and served
# as the same bytes by nginx (sendfile, no access log), both on loopback. Reports the cost of
# signing one request (µs) and the cold download rates of http:// from nginx, s3:// with nginx as
# the endpoint (the S3 transport's own cost) and s3:// from moto, medians of 5 interleaved rounds.
#   scripts/bench-s3.sh     (BENCH_DIR, default /tmp/magpie-s3-bench; JOBS, default 8)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/netbench.sh
. scripts/lib/netbench.sh
netbench_prepare
work=${BENCH_DIR:-/tmp/magpie-s3-bench}
venv=${MOTO_VENV:-.build/moto-venv}
[ -x "$venv/bin/moto_server" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q "moto[server]"; }
rm -f .build-bench/*/release/description.json  # a stale one makes SwiftPM fail with "unknown build description"
swift build -c release --static-swift-stdlib --product magpie-net-bench --scratch-path .build-bench 2>&1 | tail -1

mkdir -p "$work/www/bench"
python3 - "$work/www/bench/photo.jpg" <<'PY'
import sys
from PIL import Image
# Noise in every channel: about 1 MB as a JPEG of quality 85.
im = Image.merge("RGB", [Image.effect_noise((1600, 1100), 40) for _ in range(3)])
im.save(sys.argv[1], quality=85)
PY
echo "object: $(stat -c %s "$work/www/bench/photo.jpg") bytes"
netbench_nginx "$work" "access_log off;"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$venv/bin/moto_server" -H 127.0.0.1 -p "$port" > "$work/moto.log" 2>&1 &
moto=$!
trap 'kill $moto 2>/dev/null; kill $(cat "$work/nginx/nginx.pid") 2>/dev/null || true' EXIT
"$venv/bin/python" - "http://127.0.0.1:$port" "$work/www/bench/photo.jpg" <<'PY'
import sys, time, urllib.request
import boto3
endpoint, path = sys.argv[1:3]
for _ in range(100):
    try:
        urllib.request.urlopen(endpoint + "/moto-api/"); break
    except Exception:
        time.sleep(0.1)
s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b")
s3.create_bucket(Bucket="bench")
s3.put_object(Bucket="bench", Key="photo.jpg", Body=open(path, "rb").read(), ContentType="image/jpeg")
PY
.build-bench/release/magpie-net-bench s3 "http://127.0.0.1:$port" "$base" -j "${JOBS:-8}"
