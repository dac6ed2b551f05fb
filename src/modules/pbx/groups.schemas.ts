// Schemas of the groups of a CloudPBX and of their forwards (document 2, Group forward, Group
// forwards, Numbering plan `groups`; routes.md createGroup...updateGroupForward; issue 26, points 1
// and 2). A group's id is its vcpGroupId.
import { Type, type Static } from 'typebox';
import { Id, Nullable, Obj, OneOf } from '../../http/schemas.ts';
import { pagingQuery } from '../../http/paging.ts';

/** Issue 26, point 1: the two kinds of group. */
export const GROUP_TYPES = ['hunting_group', 'manager_assistant'] as const;
/** Issue 26, point 1: a hunting group's policy (`parallel` by default). */
export const GROUP_POLICIES = ['parallel', 'sequential', 'circular'] as const;
/** Document 2, Group forwards: "supported types are `immediate` and `overflow`". */
export const FORWARD_TYPES = ['immediate', 'overflow'] as const;
/** Document 2, Group forwards: the destination types. */
export const FORWARD_DESTINATIONS = ['internalnumber', 'externalnumber', 'autoattendant', 'voicemail'] as const;
export const GROUP_SORT_FIELDS = ['name', 'shortNumber', 'type', 'creationDate'] as const;
/** At most this many members, managers or assistants in one group. */
export const MAX_GROUP_MEMBERS = 500;

export type GroupType = (typeof GROUP_TYPES)[number];
export type ForwardType = (typeof FORWARD_TYPES)[number];

/** A subscriber of a group, as the answer shows it. */
export const GroupMember = Obj({
  phoneNumberId: Id('the subscriber’s id'),
  userId: Id(),
  userDisplayName: Type.String(),
  shortNumber: Type.String(),
});

export const Group = Obj(
  {
    id: Id('the group’s vcpGroupId'),
    systemId: Id('its CloudPBX'),
    name: Type.String(),
    type: OneOf(GROUP_TYPES),
    shortNumber: Nullable(Type.String()),
    policy: OneOf(GROUP_POLICIES),
    members: Type.Array(GroupMember, { description: 'a hunting group’s members, in order (empty otherwise)' }),
    managers: Type.Optional(Type.Array(GroupMember, { description: 'manager_assistant only' })),
    assistants: Type.Optional(Type.Array(GroupMember, { description: 'manager_assistant only' })),
  },
  { description: 'a group of a CloudPBX: a hunting group or a manager-assistant group' },
);

export const GroupParams = Type.Object({ systemId: Id(), groupId: Id() });

/** A subscriber named by its phoneNumberId (clients send the id, or an object holding it). */
const MemberRef = Type.Union([Id('a subscriber’s phoneNumberId'), Obj({ phoneNumberId: Id() })]);
const MemberList = (description: string) =>
  Type.Array(MemberRef, {
    maxItems: MAX_GROUP_MEMBERS,
    description: `${description}: phoneNumberIds of subscribers of this CloudPBX`,
  });
const ShortNumber = Type.Union([Type.String({ minLength: 1, maxLength: 20 }), Type.Integer({ minimum: 0 })], {
  description: 'a free number of the numbering plan (free among subscribers and groups)',
});
const Name = Type.String({ minLength: 1, maxLength: 255 });

export const CreateGroupBody = Obj({
  name: Name,
  type: OneOf(GROUP_TYPES),
  shortNumber: Type.Optional(Nullable(ShortNumber)),
  policy: Type.Optional(OneOf(GROUP_POLICIES, { description: 'hunting groups; default parallel' })),
  members: Type.Optional(MemberList('hunting group')),
  managers: Type.Optional(MemberList('manager_assistant')),
  assistants: Type.Optional(MemberList('manager_assistant')),
});

export const UpdateGroupBody = Obj({
  name: Type.Optional(Name),
  type: Type.Optional(OneOf(GROUP_TYPES, { description: 'cannot change' })),
  shortNumber: Type.Optional(Nullable(ShortNumber)),
  policy: Type.Optional(OneOf(GROUP_POLICIES)),
  members: Type.Optional(MemberList('hunting group (the whole new list)')),
  managers: Type.Optional(MemberList('manager_assistant (the whole new list)')),
  assistants: Type.Optional(MemberList('manager_assistant (the whole new list)')),
});

export const ListGroupsQuery = Type.Object({ ...pagingQuery(GROUP_SORT_FIELDS, 'name') });

export type CreateGroupInput = Static<typeof CreateGroupBody>;
export type UpdateGroupInput = Static<typeof UpdateGroupBody>;
export type MemberInput = Static<typeof MemberRef>;

/** Document 2, Group forward. */
export const GroupForward = Obj({
  type: OneOf(FORWARD_TYPES),
  number: Nullable(Type.String()),
  destinationType: Nullable(OneOf(FORWARD_DESTINATIONS)),
  activate: Type.Boolean(),
  noReplyDelay: Nullable(Type.Integer({ description: 'overflow only, seconds' })),
  vcpAutoAttendantId: Nullable(Type.String()),
  name: Nullable(Type.String({ description: 'the destination’s name (null: no destination)' })),
});

export const GroupForwards = Obj({
  name: Type.String({ description: 'the group’s name' }),
  groupForwards: Type.Array(GroupForward, { description: 'immediate and overflow, always both' }),
});

export const ForwardTypeQuery = Type.Object({
  callForwardType: Type.Optional(OneOf(FORWARD_TYPES, { description: 'also accepted in the body' })),
});

export const UpdateGroupForwardBody = Obj({
  callForwardType: Type.Optional(OneOf(FORWARD_TYPES, { description: 'required, here or in the query' })),
  activate: Type.Boolean(),
  destinationType: Type.Optional(Nullable(OneOf(FORWARD_DESTINATIONS, { description: 'required to activate' }))),
  number: Type.Optional(
    Nullable(
      Type.Union([Type.String({ maxLength: 40 }), Type.Integer({ minimum: 0 })], {
        description: 'internalnumber: an allocated short number of this CloudPBX; externalnumber: a phone number',
      }),
    ),
  ),
  noReplyDelay: Type.Optional(
    Nullable(Type.Integer({ minimum: 10, maximum: 60, description: 'overflow only, seconds, 10 to 60; default 20' })),
  ),
  vcpAutoAttendantId: Type.Optional(Nullable(Id('autoattendant: a welcome service of this CloudPBX'))),
});

export const UpdatedForward = Obj({
  type: OneOf(FORWARD_TYPES),
  destinationType: Nullable(OneOf(FORWARD_DESTINATIONS)),
  vcpAutoAttendantId: Nullable(Type.String()),
  activate: Type.Boolean(),
});

export type UpdateGroupForwardInput = Static<typeof UpdateGroupForwardBody>;
