// The voice platform with a real SIP registrar: Kamailio (PORTS=voice=kamailio; issue 25, point 8).
// Device accounts are rows of Kamailio's `subscriber` table (user name, SIP_DOMAIN, HA1 and HA1B,
// never the password: Kamailio runs auth_db with calculate_ha1 0), written in its PostgreSQL
// database (KAMAILIO_DATABASE_URL). Registrations are read from its `location` table (usrloc with
// db_mode 1, write-through, and TZ=UTC: `expires` is then UTC). Kamailio is driven over its control
// socket (KAMAILIO_CTL) with `kamcmd`: `ul.rm` removes a deleted account's bindings, and
// `tm.t_uac_wait_block` sends the reboot NOTIFY. The configuration it expects is
// .ci/kamailio/kamailio.cfg.
//
// Tenants, subscribers and call records are not Kamailio's: they are delegated to the embedded
// implementation (state in the service's database), as is the service's own record of which device
// has which user name (port_records, without the HA1).
import { execFile } from 'node:child_process';
import pg from 'pg';
import type { Db } from '../../db/client.ts';
import { PortFailure } from '../control.ts';
import { records } from '../records.ts';
import { checkDeviceAccountInput, deviceAccountRecords, digestHashes } from './device-accounts.ts';
import { embeddedVoice } from './voice.embedded.ts';
import type { DeviceAccount, DeviceRegistration, VoicePort, VoiceTenant } from './voice.port.ts';

export interface KamailioOptions {
  /** Kamailio's PostgreSQL database. */
  databaseUrl: string;
  /** The control socket, as `kamcmd -s` takes it. */
  ctl: string;
  sipDomain: string;
  /** The kamcmd program (default: `kamcmd` on the PATH). */
  kamcmd?: string;
  /** Longest wait for one kamcmd call (default 10 s; Kamailio's own NOTIFY timeout, tm's fr_timer, is 3 s in its configuration). */
  kamcmdTimeoutMs?: number;
}

/** host:port of a SIP URI (`sip:user@host:port;params`, `sip:host:port`), 5060 when it names no port. */
export function hostPort(uri: string): string {
  let rest = uri.trim().replace(/^<|>$/g, '');
  rest = rest.replace(/^sips?:/i, '');
  const at = rest.lastIndexOf('@');
  if (at >= 0) rest = rest.slice(at + 1);
  rest = rest.split(/[;?>]/)[0] ?? '';
  const hasPort = rest.startsWith('[') ? /\]:\d+$/.test(rest) : /:\d+$/.test(rest);
  return hasPort ? rest : `${rest}:5060`;
}

/** A SIP URI read from the registrar, as it may go into a kamcmd argument: printable ASCII, no space or control character. */
const PLAIN_URI = /^sips?:[!-~]+$/i;

/** Put before the HA1 of a disabled account: no digest answer matches it. */
const DISABLED = '!';

interface LocationRow {
  ruid: string;
  contact: string;
  received: string | null;
  user_agent: string;
  expires: string;
}

export function kamailioVoice(db: Db, o: KamailioOptions): VoicePort {
  const base = embeddedVoice(db, o.sipDomain);
  const devices = deviceAccountRecords(db, o.sipDomain);
  const tenants = records<Omit<VoiceTenant, 'id'>>(db, 'voice', 'tenant');
  // Few connections, closed when idle: the pool never keeps the process alive.
  const pool = new pg.Pool({
    connectionString: o.databaseUrl,
    max: 2,
    idleTimeoutMillis: 5_000,
    allowExitOnIdle: true,
  });
  pool.on('error', () => undefined); // an idle connection dropped by the server: the next query opens another
  const query = async <R extends pg.QueryResultRow>(operation: string, text: string, values: unknown[]) => {
    try {
      return await pool.query<R>(text, values);
    } catch (err) {
      throw new PortFailure(
        'voice',
        operation,
        `Kamailio's database: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  };

  /** One RPC over the control socket; arguments as an array, no shell. */
  const kamcmd = (operation: string, args: string[]) =>
    new Promise<string>((resolve, reject) => {
      execFile(
        o.kamcmd ?? 'kamcmd',
        ['-s', o.ctl, ...args],
        { timeout: o.kamcmdTimeoutMs ?? 10_000, encoding: 'utf8' },
        (err, stdout, stderr) => {
          const text = `${stdout}`.trim();
          if (err || /^error/i.test(text))
            reject(
              new PortFailure(
                'voice',
                operation,
                `kamcmd ${args[0] ?? ''}: ${`${stderr}`.trim() || text || (err ? err.message : 'failed')}`,
              ),
            );
          else resolve(text);
        },
      );
    });

  const account = async (operation: string, deviceId: string): Promise<DeviceAccount> => {
    const { ha1: _, ...a } = await devices.need(operation, deviceId);
    return a;
  };

  const registrations = async (operation: string, a: DeviceAccount): Promise<DeviceRegistration[]> => {
    const { rows } = await query<LocationRow>(
      operation,
      `SELECT ruid, contact, received, user_agent, to_char(expires, 'YYYY-MM-DD HH24:MI:SS') AS expires
         FROM location
        WHERE username = $1 AND domain = $2 AND expires > (now() AT TIME ZONE 'UTC')
        ORDER BY last_modified, id`,
      [a.username, a.domain],
    );
    return rows.map((r) => ({
      id: r.ruid,
      fullSipURI: r.contact,
      expirationDate: r.expires,
      user_agent: r.user_agent,
      deviceId: a.deviceId,
      publicSourceRegistration: hostPort(r.received || r.contact),
    }));
  };

  return {
    ...base,
    sipDomain: o.sipDomain,
    async createDeviceAccount(a) {
      checkDeviceAccountInput('createDeviceAccount', a);
      if (!(await tenants.get(a.tenantId)))
        throw new PortFailure('voice', 'createDeviceAccount', `no tenant ${a.tenantId}`);
      const made = await devices.create({ tenantId: a.tenantId, deviceId: a.deviceId, username: a.username });
      const { ha1, ha1b } = digestHashes(a.username, o.sipDomain, a.password);
      try {
        await query(
          'createDeviceAccount',
          'INSERT INTO subscriber (username, domain, ha1, ha1b) VALUES ($1, $2, $3, $4)',
          [a.username, o.sipDomain, ha1, ha1b],
        );
      } catch (err) {
        await devices.remove(a.deviceId);
        throw err;
      }
      return made;
    },
    getDeviceAccount: (deviceId) => devices.view(deviceId),
    async changeDeviceAccountPassword(deviceId, password) {
      checkDeviceAccountInput('changeDeviceAccountPassword', { password });
      const a = await account('changeDeviceAccountPassword', deviceId);
      const { ha1, ha1b } = digestHashes(a.username, a.domain, password);
      const mark = a.enabled ? '' : DISABLED;
      const r = await query(
        'changeDeviceAccountPassword',
        'UPDATE subscriber SET ha1 = $1, ha1b = $2 WHERE username = $3 AND domain = $4',
        [mark + ha1, mark + ha1b, a.username, a.domain],
      );
      if (r.rowCount !== 1)
        throw new PortFailure(
          'voice',
          'changeDeviceAccountPassword',
          `no account ${a.username}@${a.domain} on Kamailio`,
        );
    },
    async setDeviceAccountEnabled(deviceId, enabled) {
      const a = await account('setDeviceAccountEnabled', deviceId);
      // Disabled: the HA1 and HA1B stay, behind a mark no digest answer can match (auth_check then
      // fails as for a wrong password: 403), and the bindings go. Enabled again: the mark goes.
      const r = await query(
        'setDeviceAccountEnabled',
        enabled
          ? `UPDATE subscriber SET ha1 = substr(ha1, 2), ha1b = substr(ha1b, 2)
              WHERE username = $1 AND domain = $2 AND left(ha1, 1) = $3`
          : `UPDATE subscriber SET ha1 = $3 || ha1, ha1b = $3 || ha1b
              WHERE username = $1 AND domain = $2 AND left(ha1, 1) <> $3`,
        [a.username, a.domain, DISABLED],
      );
      if (!enabled) await kamcmd('setDeviceAccountEnabled', ['ul.rm', 'location', `s:${a.username}@${a.domain}`]);
      if (r.rowCount === 0 && a.enabled !== enabled) {
        const left = await query(
          'setDeviceAccountEnabled',
          'SELECT 1 FROM subscriber WHERE username = $1 AND domain = $2',
          [a.username, a.domain],
        );
        if (!left.rowCount)
          throw new PortFailure('voice', 'setDeviceAccountEnabled', `no account ${a.username}@${a.domain} on Kamailio`);
      }
      await devices.setEnabled(deviceId, enabled);
    },
    async deleteDeviceAccount(deviceId) {
      const a = await account('deleteDeviceAccount', deviceId);
      // The account first (no new REGISTER passes), then the bindings it made, which would
      // otherwise stay until they expire: usrloc removes them from memory and, in db_mode 1, from
      // `location`.
      await query('deleteDeviceAccount', 'DELETE FROM subscriber WHERE username = $1 AND domain = $2', [
        a.username,
        a.domain,
      ]);
      await kamcmd('deleteDeviceAccount', ['ul.rm', 'location', `s:${a.username}@${a.domain}`]);
      await devices.remove(deviceId);
    },
    async listRegistrations(deviceId) {
      return registrations('listRegistrations', await account('listRegistrations', deviceId));
    },
    async rebootDevice(deviceId) {
      const a = await account('rebootDevice', deviceId);
      const headers =
        `From: <sip:${a.domain}>\r\n` +
        `To: <sip:${a.username}@${a.domain}>\r\n` +
        'Event: check-sync;reboot=true\r\n' +
        'Subscription-State: terminated\r\n';
      const answers = await Promise.all(
        (await registrations('rebootDevice', a)).map(async (r) => {
          if (!PLAIN_URI.test(r.fullSipURI)) return 0;
          // Behind a NAT the phone is reached at the address its REGISTER came from (`received`).
          const received = r.publicSourceRegistration !== hostPort(r.fullSipURI);
          const nextHop = received ? `s:sip:${r.publicSourceRegistration}` : '.';
          // method, request URI, next hop, send socket, headers, body (`s:`, empty: kamcmd needs it).
          const out = await kamcmd('rebootDevice', [
            'tm.t_uac_wait_block',
            'NOTIFY',
            `s:${r.fullSipURI}`,
            nextHop,
            '.',
            headers,
            's:',
          ]);
          const code = Number(/code:\s*(\d{3})/.exec(out)?.[1] ?? 0);
          return code >= 200 && code < 300 ? 1 : 0;
        }),
      );
      return answers.reduce<number>((n, x) => n + x, 0);
    },
  };
}
