// Issue 7, point 4: the external systems behind ports. Each embedded implementation keeps real
// state (in the database, or the data folder for files), chosen by configuration, with delay and
// failure injection. Runs on PGlite and PostgreSQL.
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { freshDatabase } from '../support/harness.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { createPorts, type Ports } from '../../src/ports/ports.ts';
import { PortFailure } from '../../src/ports/control.ts';

let database: Database;
let dataDir: string;
let config: Config;
const now = () => new Date('2026-06-15T10:00:00Z');
let ports: Ports;
/** A second set of ports on the same database and folder: what another instance, or a restart, sees. */
let again: () => Ports;

before(async () => {
  database = await freshDatabase();
  await database.migrate();
  dataDir = mkdtempSync(join(tmpdir(), 'svc-ports-'));
  config = { ...loadConfig({}), dataDir };
  ports = createPorts({ database, config, now });
  again = () => createPorts({ database, config, now });
});
after(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded external systems', () => {
  it('issue 10, point 3: an order or a billing subscription asked again for the same reference is the one the first request made (a retried synchronisation never orders twice)', async () => {
    await ports.orders.registerApplicant('BP-IDEM', { companyName: 'Reseller' });
    const ask = {
      reference: 'sub-idem',
      applicantNumber: 'BP-IDEM',
      companyId: 'c-idem',
      offerReference: 'BUSINESS',
      quantity: 3,
    };
    const first = await ports.orders.createOrder(ask);
    const again = await ports.orders.createOrder({ ...ask, quantity: 9 });
    expect(again).toEqual(first);
    expect(await ports.orders.createOrder({ ...ask, reference: 'sub-idem-2' })).not.toMatchObject({ id: first.id });
    const account = await ports.billing.createAccount({ companyId: 'bp-idem', name: 'BP', currency: 'EUR' });
    const bill = {
      reference: 'sub-idem',
      accountId: account.id,
      ratePlanId: 'rp-1',
      quantity: 3,
      startDate: '2026-06-15',
    };
    const made = await ports.billing.createSubscription(bill);
    expect(await ports.billing.createSubscription({ ...bill, quantity: 9 })).toEqual(made);
    const rows = (await database.db.execute(
      sql`SELECT kind, count(*)::int AS n FROM port_records WHERE (kind = 'order' AND data->>'companyId' = 'c-idem') OR (kind = 'subscription' AND parent_id = ${account.id}) GROUP BY kind ORDER BY kind`,
    )) as unknown as { rows: { kind: string; n: number }[] };
    expect(rows.rows).toEqual([
      { kind: 'order', n: 2 },
      { kind: 'subscription', n: 1 },
    ]);
  });

  it('partner order system: applicant numbers and orders persist', async () => {
    expect(await ports.orders.applicantExists('BP-123')).toBe(false);
    await ports.orders.registerApplicant('BP-123', { companyName: 'Reseller' });
    const order = await ports.orders.createOrder({
      reference: 'sub-1',
      applicantNumber: 'BP-123',
      companyId: 'c1',
      offerReference: 'BUSINESS',
      quantity: 10,
    });
    await expect(
      ports.orders.createOrder({
        reference: 'sub-2',
        applicantNumber: 'BP-999',
        companyId: 'c1',
        offerReference: 'X',
        quantity: 1,
      }),
    ).rejects.toBeInstanceOf(PortFailure);
    const other = again();
    expect(await other.orders.applicantExists('BP-123')).toBe(true);
    await other.orders.updateOrder(order.id, { quantity: 12 });
    expect(await ports.orders.getOrder(order.id)).toMatchObject({
      quantity: 12,
      status: 'open',
      createdAt: '2026-06-15T10:00:00.000Z',
    });
    await ports.orders.cancelOrder(order.id);
    await expect(ports.orders.updateOrder(order.id, { quantity: 1 })).rejects.toBeInstanceOf(PortFailure);
  });

  it('billing system: accounts, subscriptions and invoices with exact amounts', async () => {
    const account = await ports.billing.createAccount({ companyId: 'bp1', name: 'BP One', currency: 'EUR' });
    await expect(
      ports.billing.createAccount({ companyId: 'bp1', name: 'again', currency: 'EUR' }),
    ).rejects.toBeInstanceOf(PortFailure);
    const sub = await ports.billing.createSubscription({
      reference: 'sub-1',
      accountId: account.id,
      ratePlanId: 'rp-1',
      quantity: 5,
      startDate: '2026-06-15',
    });
    await ports.billing.updateSubscription(sub.id, { quantity: 7 });
    const item = {
      subscriptionId: sub.id,
      chargeName: 'Licences',
      quantity: 7,
      serviceStartDate: '2026-06-01',
      serviceEndDate: '2026-06-30',
    };
    await ports.billing.createInvoice({
      accountId: account.id,
      invoiceDate: '2026-06-30',
      dueDate: '2026-07-30',
      items: [
        { ...item, chargeAmount: '0.10', taxAmount: '0.20' },
        { ...item, chargeAmount: '69.93', taxAmount: '13.99' },
      ],
    });
    const other = again();
    expect((await other.billing.findAccount('bp1'))?.id).toBe(account.id);
    expect(await other.billing.getSubscription(sub.id)).toMatchObject({ quantity: 7, status: 'active' });
    const [invoice] = await other.billing.listInvoices(account.id);
    expect(invoice).toMatchObject({
      amount: '84.22',
      currency: 'EUR',
      status: 'Posted',
      invoiceNumber: `${account.accountNumber}-00001`,
    });
    await other.billing.cancelSubscription(sub.id, '2026-06-30');
    expect(await ports.billing.getSubscription(sub.id)).toMatchObject({ status: 'cancelled', endDate: '2026-06-30' });
  });

  it('media and conference providers: provisionings per subscription', async () => {
    await expect(
      ports.providers.provision({ providerType: 'media', companyId: 'c', subscriptionId: 's' }),
    ).rejects.toBeInstanceOf(PortFailure);
    const media = await ports.providers.provision({
      providerType: 'media',
      companyId: 'c',
      subscriptionId: 's',
      mediaType: 'webrtc',
    });
    await ports.providers.provision({
      providerType: 'conference',
      companyId: 'c',
      subscriptionId: 's',
      bridgeEnterpriseId: 'ent-1',
    });
    await again().providers.deprovision(media.id);
    expect((await ports.providers.ofSubscription('s')).map((p) => [p.providerType, p.status])).toEqual([
      ['media', 'removed'],
      ['conference', 'ready'],
    ]);
  });

  it('voice platform: tenants and subscribers, a short number once per tenant', async () => {
    const tenant = await ports.voice.createTenant({ companyId: 'c', name: 'Tenant' });
    const s = await ports.voice.createSubscriber({ tenantId: tenant.id, userId: 'u1', shortNumber: '1001' });
    await expect(
      ports.voice.createSubscriber({ tenantId: tenant.id, userId: 'u2', shortNumber: '1001' }),
    ).rejects.toBeInstanceOf(PortFailure);
    await expect(ports.voice.deleteTenant(tenant.id)).rejects.toBeInstanceOf(PortFailure);
    expect((await again().voice.listSubscribers(tenant.id)).map((x) => x.shortNumber)).toEqual(['1001']);
    await ports.voice.deleteSubscriber(s.id);
    await ports.voice.deleteTenant(tenant.id);
  });

  it('file store: files in the data folder, keys that cannot leave it', async () => {
    await ports.files.put('invoices/2026-06/INV-1.csv', Buffer.from('a;b\n1;2\n'), 'text/csv');
    const got = await again().files.get('invoices/2026-06/INV-1.csv');
    expect(got).toMatchObject({ contentType: 'text/csv', size: 8 });
    expect(got!.bytes.toString()).toBe('a;b\n1;2\n');
    expect(await ports.files.list('invoices/')).toEqual(['invoices/2026-06/INV-1.csv']);
    await expect(ports.files.put('../escape', Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(PortFailure);
    expect(await ports.files.delete('invoices/2026-06/INV-1.csv')).toBe(true);
    expect(await ports.files.get('invoices/2026-06/INV-1.csv')).toBeUndefined();
  });
});

describe('delay and failure injection', () => {
  it('fails the next calls on demand, with a typed failure, then works again', async () => {
    const p = again();
    p.controls.orders.failNext = 2;
    await expect(p.orders.applicantExists('x')).rejects.toMatchObject({
      name: 'PortFailure',
      port: 'orders',
      operation: 'applicantExists',
    });
    await expect(p.orders.applicantExists('x')).rejects.toBeInstanceOf(PortFailure);
    expect(await p.orders.applicantExists('x')).toBe(false);
  });

  it('holds calls in their pending state until released', async () => {
    const p = again();
    const release = p.controls.billing.hold();
    let done = false;
    const call = p.billing.findAccount('nobody').then(() => void (done = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(done).toBe(false);
    release();
    await call;
    expect(done).toBe(true);
  });

  it('takes its starting delay and failure rate from the settings', async () => {
    const slow = createPorts({
      database,
      config: { ...config, ...loadConfig({ PORTS_DELAY_MS: '150', PORTS_FAILURE_RATE: '1' }), dataDir },
      now,
    });
    const started = Date.now();
    await expect(slow.voice.listSubscribers('t')).rejects.toBeInstanceOf(PortFailure);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    slow.controls.voice.failureRate = 0;
    slow.controls.voice.delayMs = 0;
    expect(await slow.voice.listSubscribers('t')).toEqual([]);
  });

  it('chooses implementations by configuration and refuses unknown ones', () => {
    expect(loadConfig({ PORTS: 'billing=embedded, voice=embedded' }).ports).toMatchObject({
      billing: 'embedded',
      voice: 'embedded',
      orders: 'embedded',
    });
    expect(() => loadConfig({ PORTS: 'fax=embedded' })).toThrow(/PORTS/);
    expect(() =>
      createPorts({ database, config: { ...config, ports: { ...config.ports, billing: 'zuora' } }, now }),
    ).toThrow(/no implementation "zuora" for billing/);
  });
});
