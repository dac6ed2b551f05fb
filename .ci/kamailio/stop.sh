#!/usr/bin/env bash
# Stops the Kamailio that start.sh started (by the pid in its folder); with --drop, also drops its
# database. Same settings as start.sh.
set -uo pipefail
db="${SVC_KAMAILIO_DB:-svc_kamailio_ci}"
run="${SVC_KAMAILIO_RUN:-/tmp/svc-kamailio}"
pid="$(cat "$run/kamailio.pid" 2>/dev/null || true)"
if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
  kill "$pid"
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
fi
rm -f "$run/kamailio.pid" "$run/kamailio_ctl"
if [ "${1:-}" = "--drop" ]; then
  dropdb -h "${PGHOST:-127.0.0.1}" -p "${PGPORT:-5432}" -U "${PGUSER:-postgres}" --if-exists "$db" >/dev/null 2>&1 || true
fi
exit 0
