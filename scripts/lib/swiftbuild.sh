# Shared by the scripts that build with SwiftPM (sourced): a build that says what it is doing.
#   swift_build WHAT MINUTES ARGS...   prints "building WHAT; a first build takes about MINUTES
#       minutes on 2 cores" before `swift build ARGS`, shows SwiftPM's progress (one updating
#       line on a terminal; a line at each tenth of the steps otherwise, as in CI's log), and
#       the elapsed time after it. On failure, the last 40 lines SwiftPM printed, and its status.
#   elapsed SECONDS                    "4m07s"

elapsed() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# Reads SwiftPM's output; writes the progress to standard error.
_swift_progress() {
    local line tty=0 last=-1 tenth previous=0 previous_total=0
    [ -t 2 ] && tty=1
    while IFS= read -r line; do
        if [[ $line =~ ^\[([0-9]+)/([0-9]+)\]\ (.*)$ ]]; then
            local step=${BASH_REMATCH[1]} total=${BASH_REMATCH[2]} what=${BASH_REMATCH[3]}
            # A new phase (plugins first, then the build) counts its steps from 1 again.
            if [ "$step" -le "$previous" ] && [ "$total" -ne "$previous_total" ]; then last=-1; fi
            previous=$step previous_total=$total
            if [ "$tty" = 1 ]; then
                printf '\r\033[K  [%s/%s] %.70s' "$step" "$total" "$what" >&2
            else
                tenth=$((step * 10 / (total > 0 ? total : 1)))
                if [ "$tenth" -gt "$last" ]; then
                    last=$tenth
                    printf '  [%s/%s] %s\n' "$step" "$total" "$what" >&2
                fi
            fi
        elif [[ $line =~ ^(Fetching|Cloning|Computing|Resolving|Creating\ working\ copy) ]]; then
            if [ "$tty" = 1 ]; then printf '\r\033[K  %.76s' "$line" >&2; else printf '  %s\n' "$line" >&2; fi
        fi
    done
    if [ "$tty" = 1 ]; then printf '\r\033[K' >&2; fi
}

swift_build() {
    local what=$1 minutes=$2 start=$SECONDS log status
    shift 2
    log=$(mktemp)
    printf 'building %s; a first build takes about %s minutes on 2 cores (later ones, seconds)\n' "$what" "$minutes" >&2
    set +e
    swift build "$@" 2>&1 | tee "$log" | _swift_progress
    status=${PIPESTATUS[0]}
    set -e
    if [ "$status" -ne 0 ]; then
        tail -n 40 "$log" >&2
        rm -f "$log"
        printf 'building %s failed (swift build exited %s) after %s\n' "$what" "$status" "$(elapsed $((SECONDS - start)))" >&2
        return "$status"
    fi
    rm -f "$log"
    printf 'built %s in %s\n' "$what" "$(elapsed $((SECONDS - start)))" >&2
}
