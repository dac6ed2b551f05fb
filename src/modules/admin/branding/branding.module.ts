// The branding module: Branding: company avatar and banner (document 3).
import { defineModule } from '../../module.ts';
import { brandingOperations } from './branding.operations.ts';
import { brandingPolicy } from './branding.policy.ts';
import { brandingErrors } from './branding.errors.ts';

export const brandingModule = defineModule({
  name: 'branding',
  operations: brandingOperations,
  policy: brandingPolicy,
  errors: brandingErrors,
});
