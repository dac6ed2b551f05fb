// Issue 27, point 8 (a flat cost per line): a batch of the import looks its logins up through the
// login index however far the users table has outgrown its statistics (a young database; the
// embedded one, which runs no autovacuum, never has any). Without the batch's settings
// (BATCH_SETTINGS of imports.jobs.ts: no scan of a whole table) PostgreSQL takes a thousand logins
// to match a two-hundredth of the table each and scans it all for every batch, a cost that grows
// with the table (docs/decisions.md, Performance, "No scan of the users in an import's batch").
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { databaseForFile } from '../support/harness.ts';
import { rowsOf } from '../../src/db/raw.ts';
import type { Executor } from '../../src/db/client.ts';
import { newId } from '../../src/shared/ids.ts';
import { findUsersByLogins } from '../../src/modules/admin/users/users.api.ts';
import { BATCH_SETTINGS } from '../../src/modules/imports/imports.jobs.ts';

const held = databaseForFile();

/**
 * The scans of the users table counted by this session and not yet reported (pg_stat_xact_user_tables:
 * on a server they may include the session's last transactions): compared before and after.
 */
async function scansOfUsers(tx: Executor): Promise<{ seq: number; idx: number }> {
  const [row] = rowsOf<{ seq: number; idx: number }>(
    await tx.execute(
      sql`SELECT seq_scan::int AS seq, coalesce(idx_scan, 0)::int AS idx FROM pg_stat_xact_user_tables WHERE relname = 'users'`,
    ),
  );
  return row;
}

describe('issue 27, point 8: the logins of a batch are read through their index', () => {
  it('under the batch settings, a thousand logins over thousands of users never analysed read the index, not the table', async () => {
    const { db } = held.database;
    const companyId = newId();
    await db.execute(sql`INSERT INTO companies (id, name) VALUES (${companyId}, 'Batch plan')`);
    await db.execute(sql`INSERT INTO users (id, company_id, login_email, password_hash, jid_im)
      SELECT md5(${companyId} || g)::varchar(24), ${companyId}, 'plan-' || g || '@batch-plan.example', '',
        md5(${companyId} || g) || '@plan.example'
      FROM generate_series(1, 6000) AS g`);
    const logins = Array.from({ length: 1000 }, (_, i) => `plan-new-${i}@batch-plan.example`);
    logins[0] = 'plan-17@batch-plan.example';
    const under = await db.transaction(async (tx) => {
      await tx.execute(BATCH_SETTINGS);
      const before = await scansOfUsers(tx);
      const found = await findUsersByLogins(tx, logins);
      const after = await scansOfUsers(tx);
      return { found: found.map((u) => u.loginEmail), seq: after.seq - before.seq, idx: after.idx - before.idx };
    });
    expect(under.found).toEqual(['plan-17@batch-plan.example']);
    expect(under.seq).toBe(0);
    expect(under.idx).toBeGreaterThan(0);
    // The same lookup without them, on the embedded database (no statistics ever): a scan of the
    // table (on a server, autovacuum may have analysed it meanwhile and the plan may be either).
    if (!process.env.TEST_DATABASE_URL) {
      const plainSeq = await db.transaction(async (tx) => {
        const before = await scansOfUsers(tx);
        await findUsersByLogins(tx, logins);
        return (await scansOfUsers(tx)).seq - before.seq;
      });
      expect(plainSeq).toBeGreaterThan(0);
    }
  });
});
