// The hosted PBX's part of `npm run bench` (issue 25, point 12): its load and its cases.
//
// Load (set-based, service stopped, after scripts/bench.ts's loadData): a CloudPBX for each of the
// first PBX_SMALL End Customers (at its site; its two licence holders as subscribers, two SIP
// devices of which one assigned, two DDI numbers of which one assigned) and one large CloudPBX, of
// End Customer BIG_EC, with BIG_SUBSCRIBERS subscribers (users of their own), as many SIP devices
// (every other one assigned) and BIG_DDIS DDI numbers (every other one assigned).
//
// Issue 26, point 9: the large CloudPBX also holds BIG_RECORDINGS recordings (one every 45 s back
// from the load, over some 52 days), read by its company_admin (BIG_ADMIN_EMAIL: only he consults
// them); every small PBX has a welcome with the default office hours.
//
// Cases: getCloudPbx over the small PBXs (the single reads' target: ≥ 0.7 of the bare ceiling,
// p99 < 20 ms), and, on the large PBX, listDdis with a filter, listDevices, the numbering plan in
// pages and the free internal numbers (each ≥ 2,000 requests/s, p99 < 50 ms on PostgreSQL); the
// numbering plan of the small PBXs beside it, and the whole plan of the large one for information.
import { sql } from 'drizzle-orm';
import type { openDatabase } from '../src/db/client.ts';

type Db = ReturnType<typeof openDatabase>['db'];

export const PBX_SMALL = 1_000;
export const BIG_EC = PBX_SMALL + 1;
export const BIG_SUBSCRIBERS = 5_000;
export const BIG_DDIS = 10_000;
export const BIG_RECORDINGS = 100_000;
/** The company_admin of the large CloudPBX's company (the recordings' only reader). */
export const BIG_ADMIN_EMAIL = 'pbx-big-admin@bench.example';
const PAGE = 20;

const V = '/api/svc/vcpprovisioning/v1.0';
/** The CloudPBX of End Customer e (its system's id). */
export const pbxIdSql = (e: string) => `substr(md5('pbx-' || ${e}), 1, 24)`;

export const PBX_CASES = [
  'getCloudPbx',
  'listDdis isAssigned (10k DDIs)',
  'listDevices (5k devices)',
  'getNumberingPlan',
  'getNumberingPlan (5k subscribers)',
  'getNumberingPlan pages (5k subscribers)',
  'listFreeInternalNumbers (5k subscribers)',
  'listRecordings date range (100k recordings)',
  'listRecordings month deep pages (100k recordings)',
  'getOfficeHours',
] as const;
export type PbxCase = (typeof PBX_CASES)[number];
/**
 * The PBX cases whose target is a throughput (≥ 2,000 req/s, p99 < 50 ms on PostgreSQL). The whole
 * plan of the large PBX (some 600 KB an answer) is printed for information: its target is met by
 * its paged form, which a client of a large PBX reads (docs/decisions.md, Performance, "The
 * numbering plan of a large CloudPBX").
 */
export const PBX_LIST_CASES: readonly PbxCase[] = PBX_CASES.filter(
  (c) => c !== 'getCloudPbx' && c !== 'getOfficeHours' && c !== 'getNumberingPlan (5k subscribers)',
);

export async function loadPbx(db: Db, passwordHash: string): Promise<void> {
  const ecs = `(SELECT e FROM generate_series(1, ${PBX_SMALL}) AS e UNION ALL SELECT ${BIG_EC})`;
  // The systems of type cloud_pbx (document 2: a CloudPBX is a telephone system), at the EC's site.
  await db.execute(
    sql.raw(`
    INSERT INTO systems (id, name, pbx_id, country, type, status, company_id, site_id, site_ids, bp_id,
                         jid_pbxagent, jid_pbxagent_password, jid_pbxpcg, jid_pbxpcg_password)
    SELECT ${pbxIdSql('e')}, 'Bench PBX ' || e, 'PBX' || ${pbxIdSql('e')}, 'FRA', 'cloud_pbx', 'created',
           substr(md5('ec-' || e), 1, 24), substr(md5('site-' || e), 1, 24), ARRAY[substr(md5('site-' || e), 1, 24)],
           substr(md5('bp-' || (e % 100 + 1)), 1, 24),
           'pbxagent_' || ${pbxIdSql('e')} || '@bench', 'secret', 'pbxpcg_' || ${pbxIdSql('e')} || '@bench', 'secret'
    FROM ${ecs} AS s(e)`),
  );
  await db.execute(
    sql.raw(`
    INSERT INTO pbx_cloudpbxs (id, vcp_instance_id, vcp_tenant_id, numbering_prefixes, numbering_digits)
    SELECT ${pbxIdSql('e')}, 'vcp-eu-1', 'bench-tenant-' || e, ARRAY['2'], CASE WHEN e = ${BIG_EC} THEN 4 ELSE 2 END
    FROM ${ecs} AS s(e)`),
  );
  // Small PBXs: the EC's two licence holders (scripts/bench.ts, loadCommerce) at 200 and 201.
  await db.execute(
    sql.raw(`
    INSERT INTO pbx_subscribers (id, cloudpbx_id, user_id, short_number, short_number_value, vcp_subscriber_id)
    SELECT substr(md5('pbx-sub-' || e || '-' || u), 1, 24), ${pbxIdSql('e')}, substr(md5('ec-user-' || e || '-' || u), 1, 24),
           (199 + u)::text, 199 + u, 'bench-vcp-' || e || '-' || u
    FROM generate_series(1, ${PBX_SMALL}) AS e CROSS JOIN generate_series(1, 2) AS u`),
  );
  await db.execute(
    sql.raw(`
    INSERT INTO pbx_devices (id, cloudpbx_id, description, mac_address, device_type_id, subscriber_id, sip_username, admin_password)
    SELECT substr(md5('pbx-dev-' || e || '-' || u), 1, 24), ${pbxIdSql('e')}, 'Desk phone ' || u,
           regexp_replace(substr(md5('mac-' || e || '-' || u), 1, 12), '(..)(?!$)', '\\1:', 'g'), 999999,
           CASE WHEN u = 1 THEN substr(md5('pbx-sub-' || e || '-' || u), 1, 24) END,
           'bench-' || e || '-' || u, 'not-sealed'
    FROM generate_series(1, ${PBX_SMALL}) AS e CROSS JOIN generate_series(1, 2) AS u`),
  );
  await db.execute(
    sql.raw(`
    INSERT INTO pbx_ddis (id, cloudpbx_id, number, number_e164, country, is_cloudpbx_default, user_id)
    SELECT substr(md5('pbx-ddi-' || e || '-' || u), 1, 24), ${pbxIdSql('e')},
           '+3314' || lpad(e::text, 6, '0') || (u - 1), '+3314' || lpad(e::text, 6, '0') || (u - 1), 'FRA', u = 1,
           CASE WHEN u = 1 THEN substr(md5('ec-user-' || e || '-' || u), 1, 24) END
    FROM generate_series(1, ${PBX_SMALL}) AS e CROSS JOIN generate_series(1, 2) AS u`),
  );
  // The large PBX: users of its EC of their own, each a subscriber (20000, 20001...).
  const big = pbxIdSql(String(BIG_EC));
  await db.execute(
    sql.raw(`
    INSERT INTO users (id, company_id, login_email, password_hash, first_name, last_name, roles)
    SELECT substr(md5('pbx-user-' || i), 1, 24), substr(md5('ec-' || ${BIG_EC}), 1, 24), 'pbx-user-' || i || '@bench.example',
           'not-a-hash: never signs in', 'Pbx', 'Subscriber ' || i, ARRAY['user']::text[]
    FROM generate_series(1, ${BIG_SUBSCRIBERS}) AS i`),
  );
  await db.execute(
    sql.raw(`
    INSERT INTO pbx_subscribers (id, cloudpbx_id, user_id, short_number, short_number_value, vcp_subscriber_id)
    SELECT substr(md5('pbx-big-sub-' || i), 1, 24), ${big}, substr(md5('pbx-user-' || i), 1, 24),
           (19999 + i)::text, 19999 + i, 'bench-big-vcp-' || i
    FROM generate_series(1, ${BIG_SUBSCRIBERS}) AS i`),
  );
  await db.execute(
    sql.raw(`
    INSERT INTO pbx_devices (id, cloudpbx_id, description, mac_address, device_type_id, subscriber_id, sip_username, admin_password)
    SELECT substr(md5('pbx-big-dev-' || i), 1, 24), ${big}, 'Desk phone ' || i,
           regexp_replace(substr(md5('big-mac-' || i), 1, 12), '(..)(?!$)', '\\1:', 'g'), 999999,
           CASE WHEN i % 2 = 0 THEN substr(md5('pbx-big-sub-' || i), 1, 24) END, 'bench-big-' || i, 'not-sealed'
    FROM generate_series(1, ${BIG_SUBSCRIBERS}) AS i`),
  );
  await db.execute(
    sql.raw(`
    INSERT INTO pbx_ddis (id, cloudpbx_id, number, number_e164, country, is_cloudpbx_default, user_id)
    SELECT substr(md5('pbx-big-ddi-' || i), 1, 24), ${big}, '+3315' || lpad(i::text, 7, '0'), '+3315' || lpad(i::text, 7, '0'),
           'FRA', i = 1, CASE WHEN i % 2 = 1 AND i <= 2 * ${BIG_SUBSCRIBERS} THEN substr(md5('pbx-user-' || ((i + 1) / 2)), 1, 24) END
    FROM generate_series(1, ${BIG_DDIS}) AS i`),
  );
  // Issue 26, point 9: the large PBX's recordings, its company_admin, and a welcome per small PBX.
  await db.execute(
    sql.raw(`
    INSERT INTO pbx_recordings (id, cloudpbx_id, date, direction, other_number, recorded_user_id, recorded_phone_number_id,
                                recorded_name, recorded_number, storage_key, media_type, size, duration)
    SELECT substr(md5('pbx-rec-' || i), 1, 24), ${big}, now() - i * interval '45 seconds', CASE WHEN i % 3 = 0 THEN 'out' ELSE 'in' END,
           '+336' || lpad((i % 100000)::text, 8, '0'), substr(md5('pbx-user-' || (i % ${BIG_SUBSCRIBERS} + 1)), 1, 24),
           substr(md5('pbx-big-sub-' || (i % ${BIG_SUBSCRIBERS} + 1)), 1, 24), 'Pbx Subscriber ' || (i % ${BIG_SUBSCRIBERS} + 1),
           (20000 + i % ${BIG_SUBSCRIBERS})::text, 'bench/recordings/' || i, 'audio/wav', 80000, 10 + i % 300
    FROM generate_series(1, ${BIG_RECORDINGS}) AS i`),
  );
  await db.execute(sql`
    INSERT INTO users (id, company_id, login_email, password_hash, first_name, last_name, roles)
    VALUES (substr(md5('pbx-big-admin'), 1, 24), substr(md5('ec-' || ${BIG_EC}::int), 1, 24), ${BIG_ADMIN_EMAIL},
            ${passwordHash}, 'Pbx', 'Admin', ARRAY['company_admin', 'user']::text[])`);
  await db.execute(
    sql.raw(`
    INSERT INTO pbx_ivrs (id, cloudpbx_id, kind, name, timezone, is_default_ivr)
    SELECT substr(md5('pbx-welcome-' || e), 1, 24), ${pbxIdSql('e')}, 'welcome', 'Welcome ' || e, 'Europe/Paris', true
    FROM generate_series(1, ${PBX_SMALL}) AS e`),
  );
  for (const table of [
    'systems',
    'pbx_cloudpbxs',
    'pbx_subscribers',
    'pbx_devices',
    'pbx_ddis',
    'pbx_recordings',
    'pbx_ivrs',
  ])
    await db.execute(sql.raw(`VACUUM ANALYZE ${table}`));
}

interface PbxReq {
  method: 'GET';
  path: string;
  headers: Record<string, string>;
}

/**
 * The requests of a PBX case, as the superadmin: `pbxIds` are the small PBXs in the bench's
 * rotation, `bigPbxId` the large one.
 */
export function pbxRequests(
  c: PbxCase,
  pbxIds: string[],
  /** The welcome of each of `pbxIds`, in the same order. */
  welcomeIds: string[],
  bigPbxId: string,
  token: string,
  bigAdminToken: string,
): PbxReq[] {
  const headers = { authorization: `Bearer ${token}` };
  const C = `${V}/cloudpbxs/${bigPbxId}`;
  // Pages spread over the whole list, as a console paging through it asks them.
  const offsets = (rows: number) => Array.from({ length: Math.floor(rows / PAGE) }, (_, k) => k * PAGE);
  switch (c) {
    case 'getCloudPbx':
      return pbxIds.map((id) => ({ method: 'GET', path: `${V}/cloudpbxs/${id}`, headers }));
    case 'listDdis isAssigned (10k DDIs)':
      return offsets(BIG_DDIS / 2).map((offset) => ({
        method: 'GET',
        path: `${C}/phone-numbers/ddi?isAssigned=true&limit=${PAGE}&offset=${offset}`,
        headers,
      }));
    case 'listDevices (5k devices)':
      return offsets(BIG_SUBSCRIBERS).map((offset) => ({
        method: 'GET',
        path: `${C}/devices?limit=${PAGE}&offset=${offset}`,
        headers,
      }));
    case 'getNumberingPlan':
      return pbxIds.map((id) => ({ method: 'GET', path: `${V}/cloudpbxs/${id}/numbering-plan`, headers }));
    case 'getNumberingPlan (5k subscribers)':
      return [{ method: 'GET', path: `${C}/numbering-plan`, headers }];
    case 'getNumberingPlan pages (5k subscribers)':
      // Pages of 20 of each list of allocated numbers, spread over the 5,000 subscribers.
      return offsets(BIG_SUBSCRIBERS).map((offset) => ({
        method: 'GET',
        path: `${C}/numbering-plan?limit=${PAGE}&offset=${offset}`,
        headers,
      }));
    case 'listFreeInternalNumbers (5k subscribers)':
      // The whole plan (its first free number is after the 5,000 allocated ones, 20000-24999) and
      // prefixes of its free part.
      return ['2', ...Array.from({ length: 50 }, (_, k) => `2${50 + k}`)].map((startingWith) => ({
        method: 'GET',
        path: `${C}/phone-numbers/free?startingWith=${startingWith}&limit=100`,
        headers,
      }));
    case 'listRecordings date range (100k recordings)': {
      // A day of recordings (some 1,900), its pages, for each of the last 30 days: as the console
      // of the company_admin pages through a day.
      const day = 86_400_000;
      const start = Date.now() - 30 * day;
      return Array.from({ length: 30 * 10 }, (_, k) => {
        const from = new Date(start + Math.floor(k / 10) * day);
        const to = new Date(from.getTime() + day);
        return {
          method: 'GET' as const,
          path: `${C}/recordings?fromDate=${from.toISOString()}&toDate=${to.toISOString()}&limit=${PAGE}&offset=${(k % 10) * PAGE}`,
          headers: { authorization: `Bearer ${bigAdminToken}` },
        };
      });
    }
    case 'listRecordings month deep pages (100k recordings)': {
      // The last 30 days (some 57,000 recordings), pages spread over the whole range, the deepest
      // at offset 57,270: as a client paging through a month.
      const to = new Date();
      const from = new Date(to.getTime() - 30 * 86_400_000);
      return Array.from({ length: 250 }, (_, k) => ({
        method: 'GET' as const,
        path: `${C}/recordings?fromDate=${from.toISOString()}&toDate=${to.toISOString()}&limit=${PAGE}&offset=${k * 230}`,
        headers: { authorization: `Bearer ${bigAdminToken}` },
      }));
    }
    case 'getOfficeHours':
      return pbxIds.map((id, i) => ({
        method: 'GET',
        path: `${V}/cloudpbxs/${id}/ivrs/${welcomeIds[i]}/officehours`,
        headers,
      }));
  }
}
