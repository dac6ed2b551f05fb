// Schemas of the external trunks (document 2, External SIP trunk; routes.md, CloudPBX).
import { Type } from 'typebox';
import { DateTime, Id, Nullable, Obj, OneOf } from '../../http/schemas.ts';
import { pagingQuery } from '../../http/paging.ts';

export const TRUNK_STATUSES = ['new', 'active'] as const;
export const TRUNK_TYPES = ['bp_trunk', 'rb_trunk'] as const;

const Text = Type.String({ maxLength: 255 });
const Header = Type.String({ maxLength: 255 });
/** Document 2: peeringGroupId, resellerId are integers (sent as strings too: coerced). */
const Int = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

const LoadBalancerOptions = Obj({
  policy: Nullable(Type.String()),
  loadBalancerId: Nullable(Type.String()),
  loadBalancerHostName: Nullable(Type.String()),
  loadBalancerDisplayName: Nullable(Type.String()),
  loadBalancerDescription: Nullable(Type.String()),
});

/** Document 2, External SIP trunk. */
export const ExternalTrunk = Obj(
  {
    id: Id(),
    name: Type.String(),
    description: Nullable(Type.String()),
    customSipHeader_1: Nullable(Type.String()),
    customSipHeader_2: Nullable(Type.String()),
    peerAuthenticationRealm: Nullable(Type.String()),
    bpIds: Type.Array(Type.String(), { description: 'the BP companies that may use the trunk' }),
    status: OneOf(TRUNK_STATUSES),
    peeringGroupId: Nullable(Type.Integer()),
    resellerId: Nullable(Type.Integer()),
    vcpInstanceId: Type.String({ description: 'the voice platform instance of the trunk' }),
    trunkType: OneOf(TRUNK_TYPES),
    routeInternalCallsToPeerAllowed: Type.Boolean(),
    callForkingToPstnNumber: Type.Boolean(),
    loadBalancerOptions: LoadBalancerOptions,
    creationDate: DateTime(),
  },
  { description: 'an external SIP trunk of the platform to an operator' },
);

/** loadBalancerOptions in a request: each field optional (a PUT merges them; null clears one). */
const LoadBalancerOptionsInput = Obj({
  policy: Type.Optional(Nullable(Text)),
  loadBalancerId: Type.Optional(Nullable(Text)),
  loadBalancerHostName: Type.Optional(Nullable(Text)),
  loadBalancerDisplayName: Type.Optional(Nullable(Text)),
  loadBalancerDescription: Type.Optional(Nullable(Text)),
});

const BpIds = Type.Array(Id(), {
  maxItems: 1000,
  description: 'ids of BP companies (isBP) that may use the trunk',
});

const optional = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  customSipHeader_1: Type.Optional(Nullable(Header)),
  customSipHeader_2: Type.Optional(Nullable(Header)),
  peerAuthenticationRealm: Type.Optional(Nullable(Text)),
  bpIds: Type.Optional(BpIds),
  status: Type.Optional(OneOf(TRUNK_STATUSES)),
  peeringGroupId: Type.Optional(Nullable(Int)),
  resellerId: Type.Optional(Nullable(Int)),
  routeInternalCallsToPeerAllowed: Type.Optional(Type.Boolean()),
  callForkingToPstnNumber: Type.Optional(Type.Boolean()),
  loadBalancerOptions: Type.Optional(LoadBalancerOptionsInput),
};

const Name = Type.String({ minLength: 1, maxLength: 255 });
const VcpInstanceId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'one of the voice platform instances (src/modules/pbx/pbx.instances.ts and PBX_VCP_INSTANCES)',
});

export const CreateExternalTrunkBody = Obj({
  ...optional,
  name: Name,
  vcpInstanceId: VcpInstanceId,
  trunkType: OneOf(TRUNK_TYPES),
});

export const UpdateExternalTrunkBody = Obj({
  ...optional,
  name: Type.Optional(Name),
  vcpInstanceId: Type.Optional(VcpInstanceId),
  trunkType: Type.Optional(OneOf(TRUNK_TYPES)),
});

export const TRUNK_SORT_FIELDS = ['name', 'creationDate', 'status', 'trunkType', 'vcpInstanceId'] as const;

export const ListExternalTrunksQuery = Type.Object({
  vcpInstanceId: Type.Optional(Type.String({ maxLength: 64, description: 'only the trunks of this instance' })),
  status: Type.Optional(OneOf(TRUNK_STATUSES)),
  trunkType: Type.Optional(OneOf(TRUNK_TYPES)),
  bpId: Type.Optional(Type.String({ maxLength: 64, description: 'only the trunks this BP may use (in bpIds)' })),
  ...pagingQuery(TRUNK_SORT_FIELDS, 'name'),
});

export const ExternalTrunkIdParams = Type.Object({ externalTrunkId: Id() });
