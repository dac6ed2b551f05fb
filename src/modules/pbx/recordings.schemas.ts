// Schemas of the call recordings of a CloudPBX (document 2, Recording and Recordings; routes.md,
// CloudPBX: ingestRecording ... setRecordingAnnouncementProfile; issue 26, point 5).
import { Type, type Static } from 'typebox';
import { DateTime, DateTimeText, Id, Nullable, Obj, OneOf } from '../../http/schemas.ts';
import { pagingQuery } from '../../http/paging.ts';
import { RECORDING_PROFILES } from './subscribers.schemas.ts';

/** Document 2, Recording: `in` seen; a recorded call is inbound or outbound. */
export const RECORDING_DIRECTIONS = ['in', 'out'] as const;
/** Document 2, list recordings: sortField default `date` (the index's order: date, then id). */
export const RECORDING_SORT_FIELDS = ['date', 'duration', 'recordedName', 'recordedNumber', 'otherNumber'] as const;
export type RecordingSortField = (typeof RECORDING_SORT_FIELDS)[number];

export const RecordIdParams = Obj({ systemId: Id('the CloudPBX (its system)'), recordId: Id('the recording') });

/** Document 2, Recording. */
export const RecordingItem = Obj(
  {
    id: Id('the recording'),
    fileName: Type.String(),
    mime: Type.String({ description: 'the media type of the audio, judged from its content' }),
    size: Type.Integer({ description: 'bytes' }),
    date: DateTime(),
    duration: Type.Integer({
      description: 'seconds, measured from the audio (a duration in the descriptor is ignored)',
    }),
    direction: OneOf(RECORDING_DIRECTIONS),
    otherParty: Obj({ number: Type.String() }),
    recordedParty: Obj({
      userId: Nullable(Type.String()),
      groupId: Nullable(Type.String()),
      phoneNumberId: Nullable(Type.String()),
      name: Type.String({ description: 'the recorded user’s display name at the time of the call' }),
      number: Type.String({ description: 'the recorded subscriber’s short number (issue 26, pinned)' }),
    }),
  },
  { description: 'a call recording of a CloudPBX' },
);

const substring = (what: string) =>
  Type.Optional(
    Type.String({ maxLength: 200, description: `${what}: recordings whose value contains it (case-insensitive)` }),
  );

export const ListRecordingsQuery = Type.Object({
  ...pagingQuery(RECORDING_SORT_FIELDS, 'date'),
  phoneNumberId: Type.Optional(Type.String({ maxLength: 64, description: 'the recorded subscriber' })),
  fromDate: Type.Optional(DateTimeText({ description: 'recordings dated at or after it' })),
  toDate: Type.Optional(DateTimeText({ description: 'recordings dated at or before it' })),
  recordedName: substring('the recorded user’s name'),
  recordedNumber: substring('the recorded subscriber’s short number'),
  otherNumber: substring('the other party’s number'),
});
export type ListRecordingsFilters = Static<typeof ListRecordingsQuery>;

export const DeleteRecordingsQuery = Type.Object({
  recordIds: Type.String({ maxLength: 100_000, description: 'comma-separated ids of recordings of this CloudPBX' }),
});

export const AnnouncementProfileBody = Obj({ announcementProfile: OneOf(RECORDING_PROFILES) });

/**
 * The `descriptor` part of an ingestion (issue 26, point 5): JSON. Unknown fields (a `duration`
 * among them: the audio's own counts, issue 26 pinned) are dropped.
 */
export const RecordingDescriptor = Obj({
  date: DateTimeText({ description: 'when the call began' }),
  direction: OneOf(RECORDING_DIRECTIONS),
  otherParty: Obj({ number: Type.String({ minLength: 1, maxLength: 64 }) }),
  recordedParty: Obj({
    userId: Type.Optional(Id('the recorded user (a subscriber of this CloudPBX)')),
    groupId: Type.Optional(Id('the hunting group the call came through')),
    phoneNumberId: Id('the recorded subscriber'),
  }),
  fileName: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});
export type RecordingDescriptorValue = Static<typeof RecordingDescriptor>;

export const RetentionRun = Obj({
  checked: Type.Integer({ description: 'recordings looked at' }),
  deletedExpired: Type.Integer({ description: 'deleted: older than two months' }),
  deletedShort: Type.Integer({ description: 'deleted: shorter than 3 seconds' }),
});
