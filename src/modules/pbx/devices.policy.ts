// Policy of the hosted PBX: (SIP devices, programmable keys) (document 2, "What the service does",
// roles; pbx.policy.ts for the CloudPBX's grants). A device and its keys are objects of the
// CloudPBX: read as the CloudPBX is read (superadmin, support, bp_admin, organization_admin,
// company_admin, site_admin of its site), changed as it is changed (site_admin and support
// excluded). Granting a debug session is a change: the same grants; "only superadmin may differ
// from the configured default" duration is the service's rule (403830).
import { grants, type PolicyEntry } from '../../authz/grant.ts';
import { manageCloudPbxGrants, readCloudPbxGrants } from './pbx.policy.ts';

export const devicePolicy: Record<string, PolicyEntry> = {
  // Target: the CloudPBX of the path.
  createDevice: grants(manageCloudPbxGrants),
  listDevices: grants(readCloudPbxGrants),
  // Target: the device under its CloudPBX.
  getDevice: grants(readCloudPbxGrants),
  updateDevice: grants(manageCloudPbxGrants),
  deleteDevice: grants(manageCloudPbxGrants),
  resetDevice: grants(manageCloudPbxGrants),
  rebootDevice: grants(manageCloudPbxGrants),
  listDeviceRegistrations: grants(readCloudPbxGrants),
  grantDebugSession: grants(manageCloudPbxGrants),
  revokeDebugSession: grants(manageCloudPbxGrants),
  listProgrammableKeys: grants(readCloudPbxGrants),
  createProgrammableKey: grants(manageCloudPbxGrants),
  deleteProgrammableKey: grants(manageCloudPbxGrants),
  // Target: the subscriber under its CloudPBX (the unassignment: the device).
  assignDeviceToSubscriber: grants(manageCloudPbxGrants),
  listSubscriberDevices: grants(readCloudPbxGrants),
  unassignDeviceFromSubscriber: grants(manageCloudPbxGrants),
  listSubscriberRegistrations: grants(readCloudPbxGrants),
};
