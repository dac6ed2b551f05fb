-- Prosody for the end-to-end tests (.ci/run, test/e2e/) and for running the service locally with
-- XMPP (README, "Running with Prosody"). Loopback only, non-standard ports, no TLS, data in the
-- folder named by SVC_PROSODY_DATA (default /tmp/svc-prosody).
--   start: SVC_PROSODY_DATA=/tmp/svc-prosody prosodyctl --config .ci/prosody/prosody.cfg.lua start
--   stop:  SVC_PROSODY_DATA=/tmp/svc-prosody prosodyctl --config .ci/prosody/prosody.cfg.lua stop

local data = ENV_SVC_PROSODY_DATA or "/tmp/svc-prosody"

-- CI runs as root; Prosody refuses to unless told.
run_as_root = true
daemonize = true
data_path = data
certificates = data
pidfile = data .. "/prosody.pid"
log = { info = data .. "/prosody.log"; error = data .. "/prosody.err" }

interfaces = { "127.0.0.1" }
c2s_ports = { 15222 }
c2s_direct_tls_ports = { }
component_ports = { 15347 }
component_interfaces = { "127.0.0.1" }

modules_enabled = {
	"roster"; "saslauth"; "disco"; "ping"; "offline"; "posix"; "register";
}
modules_disabled = { "s2s"; "tls"; "http"; "bosh"; "websocket"; "c2s_direct_tls" }

authentication = "internal_hashed"
storage = "internal"
-- Test clients log in over plain TCP on loopback.
c2s_require_encryption = false
allow_unencrypted_plain_auth = true
-- A client that logs in again replaces its old session at once.
allow_registration = false

VirtualHost "localhost"

-- The service's XEP-0114 component (XMPP_COMPONENT_DOMAIN / XMPP_COMPONENT_SECRET).
Component "svc.localhost"
	component_secret = "svc-ci-component-secret"
