// The targets of the hosted PBX's operations (src/http/operation.ts `target`): the CloudPBX of the
// path (C = .../cloudpbxs/{systemId}), or an object under it, loaded with the CloudPBX as its parent
// in the authorising statement (an object of another CloudPBX is 404).
export const pbxTarget = { kind: 'cloudpbx', from: 'params', field: 'systemId' } as const;

/** The object of kind `kind` whose id is the path parameter `field`, under the CloudPBX of the path. */
export const underPbx = <K extends string, F extends string>(kind: K, field: F) =>
  ({ kind, from: 'params', field, parents: { cloudpbx: 'systemId' } }) as const;
