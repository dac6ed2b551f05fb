// The customisation module: Customisation and the service description (document 3).
import { defineModule } from '../../module.ts';
import { customisationOperations } from './customisation.operations.ts';
import { customisationPolicy } from './customisation.policy.ts';
import { customisationErrors } from './customisation.errors.ts';
import { ensureCustomisationTemplates } from './customisation.service.ts';

export const customisationModule = defineModule({
  name: 'customisation',
  operations: customisationOperations,
  policy: customisationPolicy,
  errors: customisationErrors,
  seed: ensureCustomisationTemplates,
});
