// Who may do what in the voice pages (src/modules/pbx/*.policy.ts, document 2's roles): the menus
// and buttons follow these lists; the service still decides, and a 403 is explained by ErrorNotice.
import { rolesFor, useRoles, type Role } from '../../auth/roles.ts';

/** readCloudPbxGrants: who reads a CloudPBX and its objects. */
export const READ_PBX: readonly Role[] = rolesFor('getCloudPbx');

/** manageCloudPbxGrants: who creates, changes and deletes them (site_admin and support excluded). */
export const MANAGE_PBX: readonly Role[] = rolesFor('updateCloudPbx');

/** recordings.policy.ts (issue 26, point 5): only the company_admin of the CloudPBX's company consults recordings. */
export const CONSULT_RECORDINGS: readonly Role[] = rolesFor('listRecordings');

export const useCanManagePbx = () => useRoles(...MANAGE_PBX);
export const useCanConsultRecordings = () => useRoles(...CONSULT_RECORDINGS);
