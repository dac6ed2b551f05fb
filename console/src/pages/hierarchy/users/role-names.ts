// The roles of document 1, as the service names them (from its OpenAPI document: roles.gen.ts).
import { ROLES } from '../../../api/roles.gen.ts';

export const ROLE_NAMES: string[] = [...ROLES];
