// Policy of the call recordings of a CloudPBX (document 2, Recordings: "only the end-customer
// admin can consult recordings"; issue 26, point 5). In the words of the issue:
//   - the company_admin of the CloudPBX's company lists, reads, downloads and deletes its
//     recordings; every other role, superadmin and bp_admin included, may not (403 when it can
//     see the CloudPBX, by getCloudPbx's grants; 404 otherwise);
//   - ingestion stands for the voice platform: superadmin only;
//   - the announcement profile is a setting of the CloudPBX: its managers (updateCloudPbx's grants);
//   - a retention run now: superadmin.
import { grant, grants, type PolicyEntry } from '../../authz/grant.ts';
import { manageCloudPbxGrants } from './pbx.policy.ts';

/** Issue 26, point 5: only the company_admin of the CloudPBX's own company consults recordings. */
const consultRecordingGrants = [grant('company_admin', 'ownCompany')];

/** Issue 26, point 5: the voice platform's ingestion, done as superadmin. */
const voicePlatformGrants = [grant('superadmin', 'any')];

export const recordingPolicy: Record<string, PolicyEntry> = {
  ingestRecording: grants(voicePlatformGrants),
  listRecordings: grants(consultRecordingGrants),
  getRecording: grants(consultRecordingGrants),
  getRecordingAudio: grants(consultRecordingGrants),
  deleteRecording: grants(consultRecordingGrants),
  deleteRecordings: grants(consultRecordingGrants),
  setRecordingAnnouncementProfile: grants(manageCloudPbxGrants),
  runRecordingRetention: grants(voicePlatformGrants),
};
