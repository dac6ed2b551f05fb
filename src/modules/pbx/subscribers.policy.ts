// Policy of the hosted PBX: (subscribers, numbering plan) (document 2, roles; pbx.policy.ts for the CloudPBX's grants).
// Document 2, "What the service does": the objects of a CloudPBX are read by those who read it
// (superadmin, support, bp_admin of its End Customer, organization_admin, company_admin, site_admin
// of its site) and changed by those who change it (site_admin and support excluded). The
// subscriber-level operations target the subscriber under the CloudPBX of the path; the
// collection and the numbering plan target the CloudPBX.
import { grants, type PolicyEntry } from '../../authz/grant.ts';
import { manageCloudPbxGrants, readCloudPbxGrants } from './pbx.policy.ts';

export const subscriberPolicy: Record<string, PolicyEntry> = {
  createSubscriber: grants(manageCloudPbxGrants),
  listSubscribers: grants(readCloudPbxGrants),
  getSubscriber: grants(readCloudPbxGrants),
  deleteSubscriber: grants(manageCloudPbxGrants),
  getSubscriberSipHeaders: grants(readCloudPbxGrants),
  updateSubscriberSipHeaders: grants(manageCloudPbxGrants),
  getSubscriberBarring: grants(readCloudPbxGrants),
  updateSubscriberBarring: grants(manageCloudPbxGrants),
  getSubscriberCallForward: grants(readCloudPbxGrants),
  updateSubscriberCallForward: grants(manageCloudPbxGrants),
  getSubscriberOverflow: grants(readCloudPbxGrants),
  updateSubscriberOverflow: grants(manageCloudPbxGrants),
  setSubscriberRecording: grants(manageCloudPbxGrants),
  getNumberingPlan: grants(readCloudPbxGrants),
  listFreeInternalNumbers: grants(readCloudPbxGrants),
};
