// EXPLAIN ANALYZE of listCompanies statements over the bench data (perf_scratch).
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { openDatabase } from './src/db/client.ts';
import { companyFilterSql } from './src/modules/admin/companies/companies.repo.ts';
import { scopeFilter } from './src/authz/evaluate.ts';
import { TARGETS } from './src/authz/targets.ts';
import { companies } from './src/db/schema.ts';
import type { Caller } from './src/authz/roles.ts';
const url = 'postgres://postgres@127.0.0.1:5432/perf_scratch';
const d = openDatabase({ url }); await d.migrate(); await d.close();
const c = new pg.Client({ connectionString: url }); await c.connect();
await c.query('ANALYZE');
const bp = (await c.query("select id from companies where name = 'Bench BP 001'")).rows[0].id;
const org = 'x';
const dialect = new PgDialect();
const callers: Record<string, Caller> = {
  superadmin: { userId: 'u', sessionId: 's', appId: null, loginEmail: 'x', companyId: 'c', roles: ['superadmin', 'user'], siteId: null, organisationId: null, companyIsBP: false, companyBpType: null, companyBpId: null },
  bp_admin: { userId: 'u', sessionId: 's', appId: null, loginEmail: 'x', companyId: bp, roles: ['bp_admin', 'user'], siteId: null, organisationId: null, companyIsBP: true, companyBpType: 'DR', companyBpId: null },
  organization_admin: { userId: 'u', sessionId: 's', appId: null, loginEmail: 'x', companyId: bp, roles: ['organization_admin', 'user'], siteId: null, organisationId: org, companyIsBP: true, companyBpType: 'DR', companyBpId: null },
};
const sets: Record<string, object> = JSON.parse(process.argv[2] ?? '{}');
for (const [role, caller] of Object.entries(callers)) {
  if (process.argv[3] && process.argv[3] !== role) continue;
  for (const [label, f] of Object.entries(sets)) {
    const scope = scopeFilter(caller, 'listCompanies', TARGETS.company.cols);
    const where = sql.join([scope, ...companyFilterSql(f as never)].filter(Boolean) as never[], sql` AND `);
    const w = (where.queryChunks.length ? where : sql`TRUE`);
    const page = dialect.sqlToQuery(sql`SELECT name, id FROM ${companies} WHERE ${w} ORDER BY lower(name), id LIMIT 20`);
    const count = dialect.sqlToQuery(sql`SELECT count(*) FROM ${companies} WHERE ${w}`);
    for (const [k, q] of [['page', page], ['count', count]] as const) {
      const r = await c.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${q.sql}`, q.params);
      const lines = r.rows.map((x) => x['QUERY PLAN'] as string);
      const time = lines.find((l) => l.startsWith('Execution Time'));
      console.log(`${role.padEnd(18)} ${label.padEnd(28)} ${k.padEnd(5)} ${time}  | ${lines.filter((l) => /Scan|Sort|Hash/.test(l)).map((l) => l.trim().replace(/\(actual.*\)/, '')).slice(0, 3).join(' / ')}`);
    }
  }
}
await c.end();
