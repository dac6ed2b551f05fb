// The background module: the operators' view of jobs and outbox events (docs/decisions.md, Jobs, events, XMPP
// and external systems).
import { defineModule } from '../../module.ts';
import { backgroundOperations } from './background.operations.ts';
import { backgroundPolicy } from './background.policy.ts';

export const backgroundModule = defineModule({
  name: 'background',
  operations: backgroundOperations,
  policy: backgroundPolicy,
});
