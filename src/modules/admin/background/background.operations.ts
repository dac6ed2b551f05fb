// Observability of background work (docs/decisions.md, Jobs, events, XMPP and external systems): read-only
// listings of the jobs and of the outbox by state, with paging, and their counts. Superadmin only
// (background.policy.ts).
import type { AnyOperation } from '../../../http/operation.ts';
import { defineOperation } from '../../../http/operation.ts';
import { listResult, parsePaging } from '../../../http/paging.ts';
import { backgroundCounts } from '../../../jobs/counts.ts';
import {
  JOB_SORT_FIELDS,
  Job,
  ListJobsQuery,
  ListOutboxQuery,
  OUTBOX_SORT_FIELDS,
  OutboxEntry,
  Summary,
} from './background.schemas.ts';
import * as repo from './background.repo.ts';

const tag = 'Background work';
const P = '/admin/v1.0/background';

const list = (v: string | undefined) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export const getBackgroundSummary = defineOperation({
  operationId: 'getBackgroundSummary',
  method: 'GET',
  path: P,
  tag,
  summary: 'Count the jobs and the outbox events by state',
  response: Summary,
  envelope: 'data',
  scope: 'caller',
  command: async (ctx) => {
    return backgroundCounts(ctx.db);
  },
});

export const listBackgroundJobs = defineOperation({
  operationId: 'listBackgroundJobs',
  method: 'GET',
  path: `${P}/jobs`,
  tag,
  summary: 'List the jobs of the queue, by state',
  description:
    'States: created, retry (waiting for its next attempt), active, completed, failed (after its retries), cancelled. Newest first by default.',
  query: ListJobsQuery,
  response: Job,
  envelope: 'list',
  scope: 'caller',
  command: async (ctx, { query }) => {
    const paging = parsePaging({ sortOrder: -1, ...query }, JOB_SORT_FIELDS, 'createdOn');
    const { items, total } = await repo.listJobs(ctx.db, { states: list(query.state), name: query.name }, paging);
    return listResult(items, total, paging);
  },
});

export const listBackgroundOutbox = defineOperation({
  operationId: 'listBackgroundOutbox',
  method: 'GET',
  path: `${P}/outbox`,
  tag,
  summary: 'List the events of the outbox, by state',
  description:
    'States: pending (not tried yet), retrying (failed attempts, waiting), delivered (acknowledged by the XMPP server; kept 7 days). Newest first by default.',
  query: ListOutboxQuery,
  response: OutboxEntry,
  envelope: 'list',
  scope: 'caller',
  command: async (ctx, { query }) => {
    const paging = parsePaging({ sortOrder: -1, ...query }, OUTBOX_SORT_FIELDS, 'createdAt');
    const { items, total } = await repo.listOutbox(
      ctx.db,
      { states: list(query.state), recipient: query.recipient },
      paging,
    );
    return listResult(items, total, paging);
  },
});

export const backgroundOperations: AnyOperation[] = [getBackgroundSummary, listBackgroundJobs, listBackgroundOutbox];
