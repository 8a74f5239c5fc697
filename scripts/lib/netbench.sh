# Shared by the network benchmarks (sourced): the 1,000-image set and nginx serving it.
#   netbench_prepare               installs the baselines (bootstrap --bench) and Pillow; sets
#                                  $work (BENCH_DIR, default /tmp/magpie-net-bench) and $jobs (JOBS, 8)
#   netbench_images DIR            makes the images once (JPEG gradients 640x480 to 3000x2000,
#                                  every tenth a PNG), reused by later runs
#   netbench_nginx WORK DIRECTIVES starts Debian's nginx as this user on a free loopback port,
#                                  everything under WORK, DIRECTIVES added to its server block;
#                                  sets $base and $access_log, stops nginx on exit

netbench_prepare() {
    scripts/bootstrap.sh --bench
    python3 -c "import PIL" 2>/dev/null || python3 -m pip install --quiet pillow
    work=${BENCH_DIR:-/tmp/magpie-net-bench}
    jobs=${JOBS:-8}
}

netbench_images() {
    local out=$1
    [ -f "$out/.complete" ] && return 0
    python3 - "$out" <<'PY'
import os, random, sys
from PIL import Image, ImageDraw
out = sys.argv[1]; os.makedirs(out, exist_ok=True)
rng = random.Random(7)
sizes = [(640, 480), (1024, 768), (1600, 1200), (2048, 1536), (3000, 2000), (1200, 1600)]
for i in range(1000):
    w, h = sizes[i % len(sizes)]
    im = Image.linear_gradient("L").resize((w, h)).convert("RGB")
    d = ImageDraw.Draw(im)
    for _ in range(12):
        x, y = rng.randrange(w), rng.randrange(h)
        r = rng.randrange(20, max(21, w // 6))
        d.ellipse((x - r, y - r, x + r, y + r), fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    if i % 10 == 9:
        im.save(f"{out}/{i:04d}.png", optimize=False)
    else:
        im.save(f"{out}/{i:04d}.jpg", quality=88)
open(f"{out}/.complete", "w").close()
PY
}

netbench_nginx() {
    local work=$1 directives=${2:-}
    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    mkdir -p "$work/nginx/tmp"
    access_log=$work/nginx/access.log
    : > "$access_log"
    cat > "$work/nginx/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 4096; }
http {
    log_format sizes '\$status \$bytes_sent \$request_uri';
    access_log $access_log sizes;
    client_body_temp_path $work/nginx/tmp/body;
    proxy_temp_path $work/nginx/tmp/proxy;
    fastcgi_temp_path $work/nginx/tmp/fastcgi;
    uwsgi_temp_path $work/nginx/tmp/uwsgi;
    scgi_temp_path $work/nginx/tmp/scgi;
    types { image/jpeg jpg; image/png png; }
    sendfile on;
    keepalive_requests 100000;
    server { listen 127.0.0.1:$port; root $work/www; $directives }
}
CONF
    /usr/sbin/nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" -e "$work/nginx/error.log"
    trap "kill \$(cat '$work/nginx/nginx.pid') 2>/dev/null || true" EXIT
    base="http://127.0.0.1:$port"
}
