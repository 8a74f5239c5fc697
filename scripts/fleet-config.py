#!/usr/bin/env python3
"""Balancer configuration for a fleet of magpie-server nodes: nginx or HAProxy, consistent hashing
on the *source* part of the request, so every size of one image lands on one node.

  scripts/fleet-config.py nginx|haproxy --listen ADDR:PORT --node NAME=ADDR:PORT... [--prefix DIR]
                          [--round-robin]

Writes the configuration to standard output. --prefix DIR puts the balancer's pid, logs and
temporary files under DIR (to run it as an ordinary user, as scripts/fleet.sh does); without it
they are left to the package's defaults (/etc/nginx/nginx.conf's http block, or haproxy.cfg's
global section). --round-robin gives the same configuration balancing round-robin instead, for
comparison.

The key is taken from the raw request target (nginx's $uri is decoded and slash-merged, which
would break `plain/http://…`): the path after the signature and the options (segments holding
`:` or `%3A`), without `plain/`, the `@ext` or `.ext` and the query. Both balancers place a
server on the ring from its name and address; every balancer in front of the same fleet must be
given the same node list (names, addresses and order; see the README's design note).
"""
import argparse
import sys

# /SIGNATURE/OPTION:ARGS/…/plain/SOURCE[@ext][?query] or /SIGNATURE/OPTION:ARGS/…/BASE64[/…][.ext]
OPTIONS = r"(?:[^/?]*(?::|%3[Aa])[^/?]*/)*"


def nginx(listen, nodes, prefix, round_robin):
    out = []
    if prefix:
        out += [
            "worker_processes 2;",
            f"pid {prefix}/nginx.pid;",
            f"error_log {prefix}/error.log warn;",
            "events { worker_connections 4096; }",
            "http {",
            f"    access_log {prefix}/access.log;",
        ]
        out += [f"    {k}_temp_path {prefix}/tmp/{k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")]
    else:
        out += ["# Include inside nginx's http { } block."]
    ind = "    " if prefix else ""
    out += [
        f"{ind}# The source part of the raw request target (see scripts/fleet-config.py).",
        f"{ind}map $request_uri $magpie_source {{",
        f'{ind}    "~^/[^/?]+/{OPTIONS}plain/(?<plain>[^?@]*)" $plain;',
        f'{ind}    "~^/[^/?]+/{OPTIONS}(?<encoded>[^?.]*)" $encoded;',
        f"{ind}    default $request_uri;",
        f"{ind}}}",
        f"{ind}upstream magpie {{",
    ]
    if not round_robin:
        out += [f"{ind}    hash $magpie_source consistent;  # ketama: 160 points a server"]
    for name, address in nodes:
        # Passive checks: two failures within 10 s take a node out for 10 s.
        out += [f"{ind}    server {address} max_fails=2 fail_timeout=10s;  # {name}"]
    out += [
        f"{ind}    keepalive 32;",
        f"{ind}}}",
        f"{ind}server {{",
        f"{ind}    listen {listen};",
        f"{ind}    merge_slashes off;",
        f"{ind}    location / {{",
        f"{ind}        proxy_pass http://magpie;  # no URI part: the raw $request_uri goes on unchanged",
        f"{ind}        proxy_http_version 1.1;",
        f'{ind}        proxy_set_header Connection "";',
        f"{ind}        proxy_connect_timeout 2s;",
        f"{ind}        proxy_read_timeout 30s;  # above the nodes' --request-timeout (20 s)",
        f"{ind}        proxy_send_timeout 30s;",
        f"{ind}        # A dead or draining node's request moves on; 429 and 504 never do (double the load).",
        f"{ind}        proxy_next_upstream error timeout http_502 http_503;",
        f"{ind}        proxy_next_upstream_tries 2;",
        f"{ind}    }}",
        f"{ind}}}",
    ]
    if prefix:
        out += ["}"]
    return "\n".join(out) + "\n"


def haproxy(listen, nodes, prefix, round_robin):
    out = ["global"]
    if prefix:
        out += [f"    pidfile {prefix}/haproxy.pid", "    log stderr format short local0 notice"]
    out += [
        "    maxconn 4096",
        "defaults",
        "    mode http",
        "    timeout connect 2s",
        "    timeout client 30s",
        "    timeout server 30s  # above the nodes' --request-timeout (20 s)",
        "    timeout http-keep-alive 30s",
        "    timeout check 2s",
        "frontend magpie",
        f"    bind {listen}",
        "    default_backend nodes",
        "backend nodes",
    ]
    if round_robin:
        out += ["    balance roundrobin"]
    else:
        out += [
            "    # The source part of the raw path (HAProxy's path is not decoded; see scripts/fleet-config.py).",
            "    acl plain path_reg ^/[^/]+/" + OPTIONS + "plain/",
            # (the expression in double quotes and each regex in single ones, so the regex's
            # parentheses are its own; a backslash before $, which HAProxy expands in double quotes)
            "    http-request set-var(txn.source) \"path,regsub('^/[^/]+/" + OPTIONS + "plain/',''),"
            + "regsub('@[^@]*\\$','')\" if plain",
            "    http-request set-var(txn.source) \"path,regsub('^/[^/]+/" + OPTIONS + "',''),"
            + "regsub('[.][^.]*\\$','')\" if !plain",
            "    balance hash var(txn.source)",
            "    hash-type consistent",
            "    # Bounded load: no node takes more than 1.5x the average; a hot source spills over.",
            "    hash-balance-factor 150",
        ]
    out += [
        "    # Active checks: a draining node's /health is 503, so it leaves before its listener closes.",
        "    option httpchk GET /health",
        "    http-check expect status 200",
        "    # A request that could not reach a node, or got 502 or 503, is tried once on another;",
        "    # never 429 or 504 (that doubles the load).",
        "    retries 1",
        "    option redispatch 1",
        "    retry-on conn-failure empty-response 502 503",
        "    http-reuse safe",
    ]
    for name, address in nodes:
        out += [f"    server {name} {address} check inter 1s fall 2 rise 2"]
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("balancer", choices=["nginx", "haproxy"])
    parser.add_argument("--listen", required=True, help="ADDR:PORT the balancer listens on")
    parser.add_argument("--node", action="append", required=True, help="NAME=ADDR:PORT (repeatable)")
    parser.add_argument("--prefix", help="directory for the balancer's pid, logs and temporary files")
    parser.add_argument("--round-robin", action="store_true", help="round-robin instead of consistent hashing")
    args = parser.parse_args()
    nodes = []
    for node in args.node:
        name, sep, address = node.partition("=")
        if not sep or not name or ":" not in address:
            parser.error(f"--node NAME=ADDR:PORT, not {node!r}")
        nodes.append((name, address))
    make = nginx if args.balancer == "nginx" else haproxy
    sys.stdout.write(make(args.listen, nodes, args.prefix, args.round_robin))


if __name__ == "__main__":
    main()
