// Schemas of the background-work listings (superadmin, read-only).
import { Type } from 'typebox';
import { DateTime, Obj, OneOf, nameSchemas } from '../../../http/schemas.ts';
import { pagingQuery } from '../../../http/paging.ts';
import { JOB_STATES } from '../../../jobs/queue.ts';
import { OUTBOX_STATES } from '../../../jobs/counts.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const NullableDate = () => Type.Union([DateTime(), Type.Null()]);

export const Job = Obj(
  {
    id: Type.String(),
    name: Type.String(),
    state: OneOf(JOB_STATES),
    retryCount: Type.Integer(),
    retryLimit: Type.Integer(),
    createdOn: DateTime(),
    startAfter: DateTime(),
    startedOn: NullableDate(),
    completedOn: NullableDate(),
    error: Nullable(Type.String({ description: 'message of the last failure of a failed or retried job' })),
  },
  { description: 'a job of the queue (its payload is not shown)' },
);

export const OutboxEntry = Obj({
  id: Type.String({ description: 'also the stanza id' }),
  recipient: Type.String(),
  seq: Type.Integer({ description: "position in the recipient's queue (commit order)" }),
  kind: Type.String({ description: 'the event (child element) name' }),
  state: OneOf(OUTBOX_STATES),
  attempts: Type.Integer(),
  lastError: Nullable(Type.String()),
  createdAt: DateTime(),
  deliveredAt: NullableDate(),
  nextAttemptAt: NullableDate(),
});

export const Summary = Obj({
  jobs: Type.Record(Type.String(), Type.Integer(), { description: 'number of jobs by state' }),
  outbox: Type.Record(Type.String(), Type.Integer(), { description: 'number of events by state' }),
});

export const JOB_SORT_FIELDS = ['createdOn', 'name', 'state'] as const;
export const OUTBOX_SORT_FIELDS = ['createdAt', 'recipient'] as const;

export const ListJobsQuery = Type.Object({
  state: Type.Optional(Type.String({ description: `comma-separated states among ${JOB_STATES.join(', ')}` })),
  name: Type.Optional(Type.String({ description: 'kind of job (queue name), exact' })),
  ...pagingQuery(JOB_SORT_FIELDS, 'createdOn'),
});

export const ListOutboxQuery = Type.Object({
  state: Type.Optional(Type.String({ description: `comma-separated states among ${OUTBOX_STATES.join(', ')}` })),
  recipient: Type.Optional(Type.String({ description: 'recipient JID, exact' })),
  ...pagingQuery(OUTBOX_SORT_FIELDS, 'createdAt'),
});

// Named components of the OpenAPI document (src/http/openapi.ts).
nameSchemas({ Job, OutboxEntry, Summary });
