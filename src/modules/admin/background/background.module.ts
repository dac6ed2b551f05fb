// The background module: the operators' view of jobs and outbox events (issue 7).
import { defineModule } from '../../module.ts';
import { backgroundOperations } from './background.operations.ts';
import { backgroundPolicy } from './background.policy.ts';

export const backgroundModule = defineModule({
  name: 'background',
  operations: backgroundOperations,
  policy: backgroundPolicy,
});
