#!/usr/bin/env bash
# Make sure PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) answer; start them if they are down.
# Prints one line per service and exits non-zero when either cannot be reached.
# Override the targets with PGHOST/PGPORT and REDIS_HOST/REDIS_PORT.
set -uo pipefail

PGHOST="${PGHOST:-127.0.0.1}"
PGPORT="${PGPORT:-5432}"
REDIS_HOST="${REDIS_HOST:-127.0.0.1}"
REDIS_PORT="${REDIS_PORT:-6379}"
WAIT_SECONDS="${SERVICES_WAIT_SECONDS:-30}"

postgres_up() { command -v pg_isready >/dev/null && pg_isready -q -h "$PGHOST" -p "$PGPORT"; }
redis_up() { command -v redis-cli >/dev/null && [ "$(redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping 2>/dev/null)" = "PONG" ]; }

wait_for() {  # wait_for CHECK: poll until CHECK succeeds or WAIT_SECONDS pass
    local deadline=$((SECONDS + WAIT_SECONDS))
    until "$1"; do
        [ "$SECONDS" -ge "$deadline" ] && return 1
        sleep 0.2
    done
}

start_postgres() {
    local version
    version="$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)"
    [ -n "$version" ] || { echo "postgres: not installed (no /etc/postgresql)"; return 1; }
    pg_ctlcluster --skip-systemctl-redirect "$version" main start >/dev/null 2>&1 || true
    wait_for postgres_up
}

start_redis() {
    command -v redis-server >/dev/null || { echo "redis: not installed (no redis-server)"; return 1; }
    redis-server --daemonize yes --bind "$REDIS_HOST" --port "$REDIS_PORT" --save "" --appendonly no >/dev/null
    wait_for redis_up
}

status=0
if postgres_up; then
    echo "postgres: up on $PGHOST:$PGPORT"
elif start_postgres; then
    echo "postgres: started on $PGHOST:$PGPORT"
else
    echo "postgres: DOWN on $PGHOST:$PGPORT and could not be started" >&2
    status=1
fi

if redis_up; then
    echo "redis: up on $REDIS_HOST:$REDIS_PORT"
elif start_redis; then
    echo "redis: started on $REDIS_HOST:$REDIS_PORT"
else
    echo "redis: DOWN on $REDIS_HOST:$REDIS_PORT and could not be started" >&2
    status=1
fi
exit "$status"
