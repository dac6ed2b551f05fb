// Check-box values (strings) back to the role names the API accepts, without a cast.
import type { Role } from '../../../auth/roles.ts';
import { ROLE_NAMES } from './role-names.ts';

const isRole = (r: string): r is Role => ROLE_NAMES.includes(r);

export const toRoles = (values: readonly string[]): Role[] => values.filter(isRole);
