// The usual operations of a child resource under a parent path (list, get, create, update, delete
// of cloudpbxs/{systemId}/subscribers/{subscriberId}/devices...), declared from the family once.
// `childRoutes` gives, for each operation, the part of its declaration the family fixes (method,
// path and aliases, tag, path parameters, item schema and formats, envelope, and the target: the
// parent for list and create, the child under its parents for get, update and delete). Each
// operation is still an ordinary declaration, written where it is exported:
//
//   export const getDevice = defineOperation({
//     ...devices.get, operationId: 'getSubscriberDevice', summary: 'Get a device', command: ...,
//   });
//
// so `npm run policy`, the authorisation matrix, the OpenAPI document and its types see it as any
// other, and its command is typed by the family's kinds (`cmd.target` a device's row,
// `cmd.parents.subscriber` its subscriber's).
import type { TSchema } from 'typebox';
import type { TargetKindName } from '../authz/targets.ts';
import type { FormatLevels } from './format.ts';
import type { ParentFields } from './operation.ts';

export interface ChildFamily<K extends TargetKindName, PK extends TargetKindName, AF extends ParentFields, PP, CP> {
  /** The child's kind (its TARGETS entry names PK as its parent). */
  kind: K;
  /** The nearest parent, named by the path, and its path parameter. */
  parent: { kind: PK; field: string };
  /** The parents the path names above that one, nearest first (`{ cloudpbx: 'systemId' }`; `{}` for none). */
  above: AF;
  /** The path of the collection (`/voice/v1.0/cloudpbxs/:systemId/subscribers`). */
  path: string;
  /** The path parameter of one child (`subscriberId`). */
  idParam: string;
  /** Other spellings of the paths (routes.md gives some collections two). */
  alias?: (path: string) => string[];
  tag: string;
  /** Path parameters of the collection (the parents') and of one child (the parents' and its id). */
  parentParams: PP;
  params: CP;
  item: TSchema;
  formats?: FormatLevels;
}

/** The parents of one child: its parent, then those above, nearest first. */
function childParents<PK extends TargetKindName, AF extends ParentFields>(
  parent: { kind: PK; field: string },
  above: AF,
): Record<PK, string> & AF {
  // (A computed key is typed as any string: the object has exactly the keys its type says.)
  return { [parent.kind]: parent.field, ...above };
}

export function childRoutes<
  K extends TargetKindName,
  PK extends TargetKindName,
  PP extends TSchema,
  CP extends TSchema,
  const AF extends ParentFields = Record<never, string>,
>(f: ChildFamily<K, PK, AF, PP, CP>) {
  const above = f.above;
  const one = `${f.path}/:${f.idParam}`;
  const common = { tag: f.tag, response: f.item, ...(f.formats ? { formats: f.formats } : {}) };
  const onParent = {
    ...common,
    params: f.parentParams,
    target: { kind: f.parent.kind, from: 'params', field: f.parent.field, parents: above } as const,
  };
  const onChild = {
    ...common,
    params: f.params,
    target: { kind: f.kind, from: 'params', field: f.idParam, parents: childParents(f.parent, above) } as const,
  };
  const aliases = (path: string) => (f.alias ? { aliases: f.alias(path) } : {});
  return {
    list: { ...onParent, method: 'GET', path: f.path, ...aliases(f.path), envelope: 'list' } as const,
    create: { ...onParent, method: 'POST', path: f.path, ...aliases(f.path), envelope: 'data' } as const,
    get: { ...onChild, method: 'GET', path: one, ...aliases(one), envelope: 'data' } as const,
    update: { ...onChild, method: 'PUT', path: one, ...aliases(one), envelope: 'data' } as const,
    delete: { ...onChild, method: 'DELETE', path: one, ...aliases(one), envelope: 'status' } as const,
  };
}
