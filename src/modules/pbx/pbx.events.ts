// Events of the hosted PBX (issue 25, point 9): a change of a subscriber, a DDI number or a SIP
// device is told to the CloudPBX's gateway (its system's `jid_pbxpcg`) through the outbox, in the
// transaction of the change (docs/events.md, CloudPBX).
import type { Executor } from '../../db/client.ts';
import { emit } from '../../events/outbox.ts';
import { pbxObjectChange, type PbxObjectKind } from '../../events/stanzas.ts';
import { systemsByIds } from '../systems/systems.api.ts';

/**
 * Writes the change of one object of the CloudPBX `cloudPbxId` to the outbox, for its gateway.
 * Call it last in the change's transaction (emit locks the recipient's row until the commit).
 */
export async function emitPbxChange(
  exec: Executor,
  cloudPbxId: string,
  kind: PbxObjectKind,
  action: 'create' | 'update' | 'delete',
  fields: Record<string, unknown>,
): Promise<void> {
  const [system] = await systemsByIds(exec, [cloudPbxId]);
  if (!system) return;
  await emit(exec, system.jidPbxpcg, pbxObjectChange(kind, action, fields));
}
