// Schemas of the greetings of a CloudPBX (document 2, Greeting and Greetings; routes.md, CloudPBX:
// listGreetings ... uploadGreeting, createGroupGreeting ... updateGroupGreetingAudio; issue 26,
// points 3 and 4).
import { Type } from 'typebox';
import { Id, Obj, OneOf } from '../../http/schemas.ts';

/** Issue 26, point 3: the scopes and their fixed greetingIds. */
export const SCOPE_GREETINGS = {
  company: ['music_on_hold', 'officehours', 'afterhours'],
  ivr: ['officehours', 'afterhours', 'menu_key_action_0'],
  autoattendantmenu: ['menu_key_action_0'],
  group: ['hg_unavailable'],
  attendant: ['attendant_on_hold'],
} as const satisfies Record<string, readonly string[]>;
export type GreetingScope = keyof typeof SCOPE_GREETINGS;
export const GREETING_IDS = [...new Set(Object.values(SCOPE_GREETINGS).flat())];

/** Issue 26, point 4: the types of a hunting group's voicemail greetings. */
export const GROUP_GREETING_TYPES = ['busy', 'unavailable'] as const;
export type GroupGreetingType = (typeof GROUP_GREETING_TYPES)[number];

/** Document 2, Greeting. */
export const Greeting = Obj(
  {
    greetingId: Type.String({ description: `one of the scope's: ${GREETING_IDS.join(', ')}` }),
    fileId: Id('the file: an uploaded one, or `default_<greetingId>_<language>` for a default file'),
    fileName: Type.String({
      description:
        'as uploaded (query fileName); a default’s names the greeting and language, such as officehours_fr.wav',
    }),
    description: Type.String(),
    size: Type.Integer({ description: 'bytes' }),
    duration: Type.Number({ description: 'seconds, measured from the audio (at least one decimal)' }),
    isDefault: Type.Boolean({ description: 'the service’s default file of a language' }),
    isActive: Type.Boolean({ description: 'the one file played for this greetingId in its scope' }),
  },
  { description: 'a greeting file' },
);

/** Issue 26, point 3: the scope selectors (at most one; none: the company announcements). */
export const scopeQuery = {
  groupId: Type.Optional(Id('a hunting group of this CloudPBX')),
  ivrId: Type.Optional(Id('a welcome service of this CloudPBX')),
  autoAttendantMenuId: Type.Optional(Id('the menu of an auto attendant: a welcome service of this CloudPBX')),
  attendant: Type.Optional(Type.Boolean({ description: 'true: the console attendant' })),
};
export const ScopeQuery = Type.Object(scopeQuery);
export const UploadGreetingQuery = Type.Object({
  ...scopeQuery,
  fileName: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'a name for the file (default: <greetingId>.wav or .mp3)',
    }),
  ),
});

export const GreetingList = Obj(
  {
    groupId: Type.Optional(Type.String()),
    ivrId: Type.Optional(Type.String()),
    autoAttendantMenuId: Type.Optional(Type.String()),
    attendant: Type.Optional(Type.Boolean()),
    greetings: Type.Array(Greeting, {
      description: 'per greetingId of the scope: its default file (of the CloudPBX’s language) then the stored files',
    }),
  },
  { description: 'the greetings of one scope' },
);

export const GreetingIdParams = Type.Object({
  systemId: Id(),
  greetingId: Type.String({ minLength: 1, maxLength: 64 }),
});
export const FileIdParams = Type.Object({ systemId: Id(), fileId: Type.String({ minLength: 1, maxLength: 64 }) });
/** uploadGreeting's path: its last segment is a greetingId, at the position get and delete name fileId. */
export const UploadGreetingParams = Type.Object({
  systemId: Id(),
  fileId: Type.String({ minLength: 1, maxLength: 64, description: 'the greetingId uploaded to' }),
});

export const GroupGreeting = Obj(
  { id: Id(), type: OneOf(GROUP_GREETING_TYPES) },
  { description: 'a group voicemail greeting' },
);
export const GroupParams = Type.Object({ systemId: Id(), groupId: Id() });
export const GroupGreetingParams = Type.Object({ systemId: Id(), groupId: Id(), greetingId: Id() });
export const CreateGroupGreetingQuery = Type.Object({ type: OneOf(GROUP_GREETING_TYPES) });
