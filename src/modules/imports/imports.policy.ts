// Policy of the bulk import (issue 27, point 10): "The superadmin imports into any company; a
// bp_admin into its End Customers; an organization_admin into the companies of its organisation;
// a company_admin into his own company; reports are readable by whoever may import into that
// company (404 to others); plain users and anonymous callers are refused."
import { grant, grants, type PolicyEntry } from '../../authz/grant.ts';

/** Who may import into a company: the target is the company (query companyId, default his own). */
const importInto = [
  grant('superadmin', 'any'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
];

/** A company the caller may see but not import into answers 403 (docs/security.md, 404 and 403). */
const onCompany = grants(importInto, { visibleBy: 'getCompany' });
/** A report (or a commandId's results) is known only to those who may import into its company: 404 to others. */
const onReport = grants(importInto);

export const importsPolicy: Record<string, PolicyEntry> = {
  checkCsv: onCompany,
  checkCsvForSync: onCompany,
  checkVoiceCsv: onCompany,
  importCsv: onCompany,
  syncCsv: onCompany,
  importVoiceCsv: onCompany,
  createReportForCommand: onCompany,
  listImports: onCompany,
  listCompanyImports: onCompany,
  getCsvTemplate: onCompany,
  exportUsersCsv: onCompany,
  getImportReport: onReport,
  deleteImportReport: onReport,
  getCheckReportForCommand: onReport,
  getImportReportForCommand: onReport,
};
