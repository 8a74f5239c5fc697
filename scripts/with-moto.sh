#!/usr/bin/env bash
# Runs a command with a real S3 API on loopback: moto's server (pip install "moto[server]" into a
# virtualenv, MOTO_VENV, default .build/moto-venv), filled by Tests/s3/moto_fixture.py, its details in
# the JSON file MAGPIE_TEST_S3 names. Requests past the fixture's own are checked as AWS would check
# them (Signature Version 4, an IAM policy). Where moto cannot be installed or started, the command
# runs without it and the S3 tests say they are skipped. Usage: scripts/with-moto.sh COMMAND [ARGS...]
set -uo pipefail
cd "$(dirname "$0")/.."
venv=${MOTO_VENV:-.build/moto-venv}
skip() {
  printf '\n*** S3 tests skipped: %s ***\n\n' "$1" >&2
  shift
  exec "$@"
}
if [ ! -x "$venv/bin/moto_server" ]; then
  { python3 -m venv "$venv" && timeout 600 "$venv/bin/pip" install -q "moto[server]"; } >&2 \
    || skip "moto[server] could not be installed from PyPI" "$@"
fi
port=$("$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
state=$(mktemp -d)
# The fixture's setup makes 11 requests; every later one must be signed and allowed.
INITIAL_NO_AUTH_ACTION_COUNT=11 "$venv/bin/moto_server" -H 127.0.0.1 -p "$port" >"$state/moto.log" 2>&1 &
moto=$!
trap 'kill $moto 2>/dev/null; wait $moto 2>/dev/null; rm -rf "$state"' EXIT
ready=0
for _ in $(seq 1 100); do
  if "$venv/bin/python" -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$port/moto-api/')" \
      2>/dev/null; then ready=1; break; fi
  kill -0 $moto 2>/dev/null || break
  sleep 0.1
done
if [ $ready = 0 ]; then
  cat "$state/moto.log" >&2
  kill $moto 2>/dev/null
  rm -rf "$state"
  trap - EXIT
  skip "moto_server did not start" "$@"
fi
"$venv/bin/python" Tests/s3/moto_fixture.py "http://127.0.0.1:$port" Tests/fixtures/formats "$state/s3.json" \
  || { cat "$state/moto.log" >&2; exit 1; }
MAGPIE_TEST_S3="$state/s3.json" "$@"
