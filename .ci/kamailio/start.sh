#!/usr/bin/env bash
# Starts the Kamailio of the end-to-end tests (the SIP registrar of the hosted PBX's devices) with
# the configuration of this folder: a fresh PostgreSQL database with Kamailio's schema, loopback
# UDP, a control socket and a pid file in its own folder, TZ=UTC. Waits until it answers.
# Settings (environment): SVC_KAMAILIO_DB (database, default svc_kamailio_ci), SVC_KAMAILIO_RUN
# (folder of the pid file, control socket and log, default /tmp/svc-kamailio), SVC_SIP_PORT
# (default 15060), PGHOST/PGPORT/PGUSER (default 127.0.0.1, 5432, postgres).
# Prints the variables the tests read (E2E_KAMAILIO_DATABASE_URL, E2E_KAMAILIO_CTL, E2E_SIP_PORT).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
db="${SVC_KAMAILIO_DB:-svc_kamailio_ci}"
run="${SVC_KAMAILIO_RUN:-/tmp/svc-kamailio}"
port="${SVC_SIP_PORT:-15060}"
pghost="${PGHOST:-127.0.0.1}" pgport="${PGPORT:-5432}" pguser="${PGUSER:-postgres}"
url="postgres://$pguser@$pghost:$pgport/$db"
ctl="unix:$run/kamailio_ctl"

# A previous instance of this folder is stopped first: a second Kamailio on the same port would
# start without error and take over the control socket.
"$here/stop.sh" >/dev/null 2>&1 || true
mkdir -p "$run"

dropdb -h "$pghost" -p "$pgport" -U "$pguser" --if-exists "$db" >/dev/null 2>&1
createdb -h "$pghost" -p "$pgport" -U "$pguser" "$db"
for f in standard auth_db usrloc; do
  psql -h "$pghost" -p "$pgport" -U "$pguser" -d "$db" -q -v ON_ERROR_STOP=1 -f "/usr/share/kamailio/postgres/$f-create.sql" >/dev/null
done

TZ=UTC nohup kamailio -DD -E -f "$here/kamailio.cfg" \
  -A "SVC_LISTEN=udp:127.0.0.1:$port" -A "SVC_DBURL=\"$url\"" -A "SVC_CTL=\"$ctl\"" \
  >"$run/kamailio.log" 2>&1 </dev/null &
echo $! >"$run/kamailio.pid"

for _ in $(seq 1 50); do
  if kamcmd -s "$ctl" core.uptime >/dev/null 2>&1; then
    echo "export E2E_KAMAILIO_DATABASE_URL=$url E2E_KAMAILIO_CTL=$ctl E2E_SIP_PORT=$port"
    exit 0
  fi
  if ! kill -0 "$(cat "$run/kamailio.pid")" 2>/dev/null; then break; fi
  sleep 0.2
done
echo "Kamailio did not start; its log ($run/kamailio.log):" >&2
tail -n 30 "$run/kamailio.log" >&2 || true
"$here/stop.sh" >/dev/null 2>&1 || true
exit 1
