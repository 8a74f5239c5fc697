# Shared by bench-serve.sh and bench-tracing.sh (sourced after netbench.sh, with $work, $bin, $venv
# and $origin set; servebench_settings sets $duration, $threads, $conns and $rounds): the servers
# they start, their wrk scripts and the report.
#   servebench_magpie VAR NAME ARGS…   starts magpie-server (cache $work/serve-cache-NAME) with
#                                      ARGS; its port in $VAR, its pid in pid_NAME
#   servebench_thumbor VAR NAME        starts thumbor (2 processes, file storages under NAME)
#   servebench_warm_files              caches the 100 warm variants on every server, keeps
#                                      magpie's bytes as files, starts the nginx static servers and
#                                      the Hummingbird floors on them ($s1port $s2port $hport $hnport)
#   run LABEL URL LUA [ARG]            one wrk run; appends its requests/s to $work/rps-LABEL

servebench_pids=()
# The settings both benchmarks take from the environment (DURATION of a wrk run, CONNS, THREADS,
# ROUNDS with the caller's default) and the work folder, made.
#   servebench_settings DEFAULT_ROUNDS
servebench_settings() {
    duration=${DURATION:-10}
    conns=${CONNS:-16}
    threads=${THREADS:-2}
    rounds=${ROUNDS:-$1}
    mkdir -p "$work"
}

# PARTS (default all): which of cold-a cold-b warm quality to run; the report needs all four.
part() { [[ " ${PARTS:-cold-a cold-b warm quality} " == *" $1 "* ]]; }
servebench_health=()
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
peak_rss() { local total=0; for pid in "$@"; do
    total=$((total + $(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0))); done; echo "$total"; }
steal() { awk '/^cpu / {print $9}' /proc/stat; }
total() { awk '/^cpu / {s = 0; for (i = 2; i <= NF; i++) s += $i; print s}' /proc/stat; }

servebench_cleanup() {  # thumbor's worker processes too (killing its parent leaves them running)
    kill "${servebench_pids[@]}" 2>/dev/null || true
    pkill -f "thumbor --ip 127.0.0.1 --port" 2>/dev/null || true
    for d in "$work"/nginx "$work"/static-*; do
        [ -f "$d/nginx.pid" ] && kill "$(cat "$d/nginx.pid")" 2>/dev/null || true
    done
    rm -rf "$work/discarded"
}

# A previous run's cache folder, moved aside and deleted when this run ends, not now: on ext4
# without a journal (this project's machines) every file created in the next 5-35 s scans past
# the inodes just freed (ext4's recently_deleted), which cost the first round 14% of its CPU.
servebench_discard() {
    [ -e "$1" ] || return 0
    mkdir -p "$work/discarded"
    mv "$1" "$work/discarded/$(basename "$1").$$.$RANDOM"
}

# The 200 sources of cold B (once), and per round a folder of links to them: new URLs, same bytes.
servebench_images_b() {
    local out=$1 n=$2
    if [ ! -f "$out/.complete" ]; then
        python3 - "$out" <<'PY'
import os, random, sys
from PIL import Image, ImageDraw, ImageFilter
out = sys.argv[1]; os.makedirs(out, exist_ok=True)
rng = random.Random(11)
for i in range(200):
    im = Image.linear_gradient("L").resize((1024, 768)).convert("RGB")
    d = ImageDraw.Draw(im)
    for _ in range(40):
        x, y, r = rng.randrange(1024), rng.randrange(768), rng.randrange(8, 160)
        d.ellipse((x - r, y - r, x + r, y + r), fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    noise = Image.effect_noise((1024, 768), 24).convert("RGB")
    im = Image.blend(im, noise, 0.25).filter(ImageFilter.SMOOTH)
    im.save(f"{out}/{i:03d}.jpg", quality=85)
open(f"{out}/.complete", "w").close()
PY
    fi
    for r in $(seq 0 $((n - 1))); do
        mkdir -p "$out/r$r"
        for f in "$out"/*.jpg; do ln -sf "../$(basename "$f")" "$out/r$r/$(basename "$f")"; done
    done
}

servebench_magpie() {
    local var=$1 name=$2 port
    shift 2
    port=$(free_port)
    servebench_discard "$work/serve-cache-$name"
    # MAGPIE_SERVER_ENV (say "MALLOC_TRIM_THRESHOLD_=131072"): variables for magpie-server alone.
    # SERVEBENCH_BIN: another build's folder (the baseline side of BASELINE_BIN).
    env ${MAGPIE_SERVER_ENV:-} "${SERVEBENCH_BIN:-$bin}/magpie-server" --bind "127.0.0.1:$port" --allow-unsigned --cache-dir "$work/serve-cache-$name" \
        --allow-network 127.0.0.1/32 --max-inflight 4096 "$@" > "$work/magpie-server-$name.log" 2>&1 &
    servebench_pids+=("$!")
    printf -v "$var" '%s' "$port"
    printf -v "pid_${name//-/_}" '%s' "$!"
    servebench_health+=("http://127.0.0.1:$port/health")
}

servebench_thumbor() {
    local var=$1 name=$2 port
    port=$(free_port)
    servebench_discard "$work/thumbor-$name"
    mkdir -p "$work/thumbor-$name"
    cat > "$work/thumbor-$name/thumbor.conf" <<CONF
ALLOW_UNSAFE_URL = True
LOADER = 'thumbor.loaders.http_loader'
STORAGE = 'thumbor.storages.file_storage'
FILE_STORAGE_ROOT_PATH = '$work/thumbor-$name/storage'
RESULT_STORAGE = 'thumbor.result_storages.file_storage'
RESULT_STORAGE_FILE_STORAGE_ROOT_PATH = '$work/thumbor-$name/result'
RESULT_STORAGE_STORES_UNSAFE = True
QUALITY = 80
CONF
    "$venv/bin/thumbor" --ip 127.0.0.1 --port "$port" --conf "$work/thumbor-$name/thumbor.conf" --processes 2 \
        -l error > "$work/thumbor-$name/log" 2>&1 &
    servebench_pids+=("$!")
    printf -v "$var" '%s' "$port"
    servebench_health+=("http://127.0.0.1:$port/healthcheck")
}

servebench_wait() {
    for url in "${servebench_health[@]}"; do
        for _ in $(seq 100); do curl -sf "$url" > /dev/null && break; sleep 0.2; done
    done
}

# wrk scripts. Each wrk thread takes every THREADS-th request (setup numbers them), so no two
# threads ask the same URL. Cold A: request n (from the offset after --) asks source s = n % 1000
# at width 64 + (7 × floor(n / 1000) + 67 × s) % 448 (no URL repeats for n below 64,000; rounds
# start 20,000 apart); warm: n % 100. Cold B: n asks source s = n % 200 at size
# 100 + 6 × ((floor(n / 200) + 7 × s) % 50) from the round's folder: the 10,000 variants in turn.
servebench_lua_head() {
    cat <<LUA
local count = 0
function setup(thread) thread:set("tid", count); count = count + 1 end
local counter, step, arg = 0, $threads, 0
function init(args) arg = tonumber(args[1] or "0"); counter = tid end
LUA
}
servebench_lua_a() {  # $1 cold|warm, $2 path format (%d width twice, %s source), $3 name
    { servebench_lua_head; cat <<LUA
function request()
  local n = arg + counter
  counter = counter + step
  if "$1" == "warm" then n = n % 100 end
  local src = n % 1000
  local ext = (src % 10 == 9) and "png" or "jpg"
  local w = 64 + (math.floor(n / 1000) * 7 + src * 67) % 448
  return wrk.format("GET", string.format("$2", w, w, string.format("%04d.", src) .. ext))
end
LUA
    } > "$work/$3.lua"
}
servebench_lua_b() {  # $1 path format (%d size twice, %d round, %03d source), $2 name
    { servebench_lua_head; cat <<LUA
function request()
  local n = counter % 10000
  counter = counter + step
  local src = n % 200
  local s = 100 + 6 * ((math.floor(n / 200) + 7 * src) % 50)
  return wrk.format("GET", string.format("$1", s, s, arg, src))
end
LUA
    } > "$work/$2.lua"
}

run() {  # $1 label, $2 base URL, $3 lua, $4 argument; prints "label: req/s, p50, p99"
    local out rps p50 p99 errs
    out=$(wrk -t"$threads" -c"$conns" -d"${duration}s" --latency -s "$3" "$2" -- "${4:-0}" 2>&1)
    rps=$(awk '/Requests\/sec/ {print $2}' <<< "$out")
    p50=$(awk '$1 == "50%" {print $2}' <<< "$out")
    p99=$(awk '$1 == "99%" {print $2}' <<< "$out")
    errs=$(awk '/Non-2xx/ {print $5}' <<< "$out")
    echo "  $1: $rps requests/s, p50 $p50, p99 $p99${errs:+, $errs non-2xx}"
    echo "$rps" >> "$work/rps-$1"
}
# A thumbor run, and how many of its worker processes did the work: its processes share one
# listening socket, and wrk's kept-alive connections may all land on one of them, halving its
# rate (seen: 117 against 238 requests/s in two rounds of the same workload).
run_thumbor() {  # $1 label, $2 port, $3 lua, $4 argument
    local workers p busy=0 before=()
    workers=$(pgrep -f "thumbor --ip 127.0.0.1 --port $2" | tail -n +2)  # the first is the parent
    for p in $workers; do before+=("$(awk '{print $14 + $15}' "/proc/$p/stat")"); done
    run "$1" "http://127.0.0.1:$2" "$3" "${4:-0}"
    local i=0 total=0 used=()
    for p in $workers; do
        used+=($(($(awk '{print $14 + $15}' "/proc/$p/stat") - before[i]))); total=$((total + used[i])); i=$((i + 1))
    done
    for u in "${used[@]}"; do [ "$total" -gt 0 ] && [ $((u * 100 / total)) -ge 20 ] && busy=$((busy + 1)); done
    echo "    (thumbor: $busy of ${#used[@]} worker processes busy, CPU ticks ${used[*]})"
    [ "$busy" -eq "${#used[@]}" ] && tail -1 "$work/rps-$1" >> "$work/rps-$1, all busy"
    return 0
}
# The median of the rounds in which all of thumbor's processes worked, else of all its rounds.
fair() { if [ -s "$work/rps-$1, all busy" ]; then median "$1, all busy"; else median "$1"; fi; }
median() { sort -g "$work/rps-$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# nginx as a production static server: sendfile, no access log, long keep-alive.
servebench_static_nginx() {  # $1 workers; sets the port in $2
    local dir="$work/static-$1" port
    port=$(free_port)
    mkdir -p "$dir/tmp"
    cat > "$dir/nginx.conf" <<CONF
worker_processes $1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    keepalive_requests 100000;
    default_type image/jpeg;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    server { listen 127.0.0.1:$port; root $work/www; }
}
CONF
    /usr/sbin/nginx -c "$dir/nginx.conf" -p "$dir" -e "$dir/error.log"
    printf -v "$2" '%s' "$port"
}

servebench_warm_files() {
    mkdir -p "$work/www/out"
    local n ext w path
    for n in $(seq 0 99); do  # one pass caches them (and gives nginx and the floor the same bytes)
        ext=jpg; [ $((n % 10)) -eq 9 ] && ext=png; w=$((64 + n * 67 % 448))
        path=$(printf "$mpath" $w $w "$(printf %04d "$n").$ext")
        curl -sf -o "$work/www/out/$n.img" "http://127.0.0.1:$mport$path"
        curl -sf -o /dev/null "http://127.0.0.1:$dport$path"
        if [ -n "${mbport:-}" ]; then curl -sf -o /dev/null "http://127.0.0.1:$mbport$path"; fi
        curl -sf -o /dev/null "http://127.0.0.1:$tport$(printf "$tpath" $w $w "$(printf %04d "$n").$ext")"
    done
    for n in 1 2; do  # a variant is kept in memory from its second request on
        for r in $(seq 0 99); do
            ext=jpg; [ $((r % 10)) -eq 9 ] && ext=png; w=$((64 + r * 67 % 448))
            path=$(printf "$mpath" $w $w "$(printf %04d "$r").$ext")
            curl -sf -o /dev/null "http://127.0.0.1:$mport$path"
            if [ -n "${mbport:-}" ]; then curl -sf -o /dev/null "http://127.0.0.1:$mbport$path"; fi
        done
    done
    servebench_static_nginx 1 s1port
    servebench_static_nginx 2 s2port
    hport=$(free_port); hnport=$(free_port)
    "$bin/magpie-hb-floor" "$hport" "$work/www/out" > "$work/floor.log" 2>&1 &
    servebench_pids+=("$!")
    .build-bench-dyn/release/magpie-hb-floor "$hnport" "$work/www/out" --nio-executor > "$work/floor-nio.log" 2>&1 &
    servebench_pids+=("$!")
    for p in "$hport" "$hnport" "$s1port" "$s2port"; do
        for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$p/out/0.img" && break; sleep 0.2; done
    done
    servebench_lua_head > "$work/static.lua"
    echo 'function request() local n = counter % 100; counter = counter + step; return wrk.format("GET", "/out/" .. n .. ".img") end' >> "$work/static.lua"
    echo 'function request() return wrk.format("GET", "/health") end' > "$work/health.lua"
}

servebench_psnr() {  # $1 label, $2 base URL, $3 path format (%d size twice, %03d source)
    local dir="$work/psnr/${1// /_}" k src size
    rm -rf "$dir"; mkdir -p "$dir"
    for k in $(seq 0 23); do
        src=$((k * 8 % 200)); size=$((100 + 6 * (k * 7 % 50)))
        curl -sf -o "$dir/$(printf %03d $src).jpg" "$2$(printf "$3" $size $size $src)"
    done
    python3 - "$dir" "$work/www/b" "$1" <<'PY'
import math, os, sys
from PIL import Image, ImageChops, ImageStat
out, src, label = sys.argv[1:4]
values = []
for name in sorted(os.listdir(out)):
    got = Image.open(os.path.join(out, name)).convert("RGB")
    ref = Image.open(os.path.join(src, name)).convert("RGB").resize(got.size, Image.LANCZOS)
    mse = sum(v * v for v in ImageStat.Stat(ImageChops.difference(got, ref)).rms) / 3
    values.append(99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse))
print(f"  {label}: mean {sum(values) / len(values):.2f} dB, lowest {min(values):.2f} dB ({len(values)} outputs)")
PY
}

servebench_report() {
    local mrss frss drss brss bfrss trss tbrss
    mrss=$(peak_rss "$pid_main"); frss=$(peak_rss "$pid_fast"); drss=$(peak_rss "$pid_disk")
    brss=$(peak_rss "$pid_b"); bfrss=$(peak_rss "$pid_b_fast")
    trss=$(peak_rss $(pgrep -f "thumbor --ip 127.0.0.1 --port $tport" || true))
    tbrss=$(peak_rss $(pgrep -f "thumbor --ip 127.0.0.1 --port $tbport" || true))
    echo "== peak RSS (KiB): magpie-server $mrss (cold A and warm), --fast $frss (cold A), from disk $drss (warm);"
    echo "   cold B: magpie-server $brss, --fast $bfrss; thumbor (all processes) A $trss, B $tbrss"
    echo "== medians of $rounds rounds (requests/s):"
    printf '  thumbor, rounds with both processes busy: cold A %s, cold B %s, warm %s\n' \
        "$(fair "thumbor cold")" "$(fair "thumbor B")" "$(fair "thumbor warm")"
    for label in "magpie cold" "thumbor cold" "magpie cold --fast" "magpie B" "thumbor B" "magpie B --fast" \
        "magpie warm" "Hummingbird floor" \
        "Hummingbird floor --nio-executor" "nginx static, 1 worker" "nginx static, 2 workers" \
        "magpie warm, from disk" "magpie health" "thumbor warm"; do
        printf '  %s: %s\n' "$label" "$(median "$label")"
    done
    echo "== ratios against thumbor use its rounds with both processes busy (all rounds when none was)"
    awk -v mc="$(median "magpie cold")" -v tc="$(fair "thumbor cold")" -v mf="$(median "magpie cold --fast")" \
        -v mb="$(median "magpie B")" -v tb="$(fair "thumbor B")" -v bf="$(median "magpie B --fast")" \
        -v fl="$floor" -v ff="$floorfast" -v mw="$(median "magpie warm")" \
        -v hf="$(median "Hummingbird floor")" -v hn="$(median "Hummingbird floor --nio-executor")" \
        -v n1="$(median "nginx static, 1 worker")" -v n2="$(median "nginx static, 2 workers")" \
        -v mr="$mrss" -v fr="$frss" -v tr="$trss" -v br="$brss" -v bfr="$bfrss" -v tbr="$tbrss" \
        'BEGIN {
           printf "ratios, cold A: magpie/thumbor %.2f× requests/s at %.2f× the RSS; --fast %.2f× at %.2f×\n",
             mc / tc, mr / tr, mf / tc, fr / tr
           printf "ratios, cold B: magpie/thumbor %.2f× at %.2f× the RSS; --fast %.2f× at %.2f×\n",
             mb / tb, br / tbr, bf / tb, bfr / tbr
           printf "ratios, cold B against the library alone: magpie %.2f×, --fast %.2f× (of its --fast floor)\n",
             mb / fl, bf / ff
           printf "ratios, warm: magpie/nginx (1 worker) %.2f×, (2 workers) %.2f×; magpie/Hummingbird floor %.2f×\n",
             mw / n1, mw / n2, mw / hf
           printf "ratios, warm floor (bare Hummingbird)/nginx (1 worker): %.2f×; with NIO as the global executor %.2f×\n",
             hf / n1, hn / n1
         }'
}
