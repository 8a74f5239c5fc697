#!/usr/bin/env bash
# A fleet on this machine: N magpie-server nodes (each its own cache folder and --node-name) behind
# a consistent-hash balancer (nginx or HAProxy, configured by scripts/fleet-config.py), all on
# loopback. Prints the balancer's URL, then runs until interrupted and stops everything on exit.
#   scripts/fleet.sh [-n N] [--balancer nginx|haproxy] [--port PORT] [--dir DIR] [--round-robin]
#                    [-- MAGPIE-SERVER-ARGS…]
# Defaults: 3 nodes, nginx, a free port, a temporary folder (removed on exit unless FLEET_KEEP
# is set). The nodes get --allow-unsigned
# unless MAGPIE_KEY is set (then they sign with MAGPIE_KEY/MAGPIE_SALT). Builds magpie-server
# (release) first unless MAGPIE_SERVER names a binary.
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=3 balancer=nginx port="" dir="" mode=()
while [ $# -gt 0 ]; do
    case $1 in
        -n) nodes=$2; shift 2 ;;
        --balancer) balancer=$2; shift 2 ;;
        --port) port=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --round-robin) mode=(--round-robin); shift ;;
        --) shift; break ;;
        *) echo "fleet.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
case $balancer in
    nginx) command -v nginx > /dev/null || [ -x /usr/sbin/nginx ] || { echo "fleet.sh: needs nginx (scripts/bootstrap.sh)" >&2; exit 1; } ;;
    haproxy) command -v haproxy > /dev/null || [ -x /usr/sbin/haproxy ] || { echo "fleet.sh: needs haproxy (scripts/bootstrap.sh)" >&2; exit 1; } ;;
    *) echo "fleet.sh: --balancer nginx or haproxy" >&2; exit 2 ;;
esac
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
[ -n "$port" ] || port=$(free_port)
made=""
[ -n "$dir" ] || { dir=$(mktemp -d /tmp/magpie-fleet.XXXXXX); made=1; }
mkdir -p "$dir/tmp"
server=${MAGPIE_SERVER:-}
if [ -z "$server" ]; then
    swift build -c release --product magpie-server 2>&1 | tail -1
    server=$(swift build -c release --show-bin-path)/magpie-server
fi
signing=(--allow-unsigned)
[ -n "${MAGPIE_KEY:-}" ] && signing=()

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait "${pids[@]}" 2>/dev/null || true
    # A folder this script made goes too (caches, logs), unless FLEET_KEEP is set.
    [ -n "$made" ] && [ -z "${FLEET_KEEP:-}" ] && rm -rf "$dir"
    return 0
}
trap cleanup EXIT
trap 'exit 0' INT TERM

node_args=()
for i in $(seq 1 "$nodes"); do
    p=$(free_port)
    "$server" --bind "127.0.0.1:$p" --cache-dir "$dir/node$i" --node-name "node$i" "${signing[@]}" "$@" \
        > "$dir/node$i.log" 2>&1 &
    pids+=($!)
    node_args+=(--node "node$i=127.0.0.1:$p")
    echo "node$i: http://127.0.0.1:$p (pid $!, log $dir/node$i.log)"
done
for arg in "${node_args[@]}"; do
    case $arg in node*=*) for _ in $(seq 100); do curl -sf "http://${arg#*=}/health" > /dev/null && break; sleep 0.1; done ;; esac
done

python3 scripts/fleet-config.py "$balancer" --listen "127.0.0.1:$port" "${node_args[@]}" --prefix "$dir" \
    "${mode[@]}" > "$dir/$balancer.conf"
# Both in the foreground, as children of this script, so that stopping it stops them.
if [ "$balancer" = nginx ]; then
    user=""
    [ "$(id -u)" -eq 0 ] && user="user root;"  # as root, workers would drop to nobody (0700 folder)
    /usr/sbin/nginx -c "$dir/nginx.conf" -p "$dir" -e "$dir/error.log" -g "daemon off; $user" &
else
    haproxy -db -f "$dir/haproxy.conf" 2> "$dir/haproxy.log" &
fi
pids+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" > /dev/null && break; sleep 0.1; done
echo "fleet: http://127.0.0.1:$port ($balancer, $nodes nodes, folder $dir); Ctrl-C stops it"
if [ -n "${FLEET_READY:-}" ]; then echo "http://127.0.0.1:$port" > "$FLEET_READY"; fi
wait "${pids[@]}" || true
