import { Type } from 'typebox';
import { DateTime, Id, Obj, OneOf, nameSchemas } from '../../../http/schemas.ts';
import { formatQuery } from '../../../http/format.ts';
import { pagingQuery } from '../../../http/paging.ts';

export const SITE_STATUSES = ['active', 'alerting', 'hold', 'terminated'] as const;
/** The union the status column carries (sites.tables.ts). */
export type SiteStatus = (typeof SITE_STATUSES)[number];
const Status = OneOf(SITE_STATUSES);
const Name = Type.String({ minLength: 1, maxLength: 255 });

/** Document 3, Site. */
export const Site = Obj(
  {
    id: Id(),
    name: Type.String(),
    latin_name: Type.String({ description: 'the name without diacritics (Zürich -> Zurich)' }),
    companyId: Id(),
    creationDate: DateTime(),
    statusUpdatedDate: DateTime(),
    settings: Obj({ iceServers: Type.Array(Type.Never()) }),
    status: Status,
  },
  { description: 'a site; fields per format level in docs/formats.md' },
);

export const SITE_FORMATS = {
  small: ['id', 'name', 'companyId', 'status'],
  medium: ['id', 'name', 'latin_name', 'companyId', 'status', 'creationDate', 'statusUpdatedDate'],
} as const;

export const CreateSiteBody = Obj({
  companyId: Id('the company of the site'),
  name: Name,
  status: Type.Optional(Status),
});

export const UpdateSiteBody = Obj({
  companyId: Id(
    'the company of the site: its current one, or another to move the site (bp_admin, organisation admin, superadmin)',
  ),
  name: Type.Optional(Name),
  status: Type.Optional(Status),
});

export const SITE_SORT_FIELDS = ['name', 'creationDate', 'status', 'statusUpdatedDate'] as const;

export const ListSitesQuery = Type.Object({
  format: formatQuery(),
  ...pagingQuery(SITE_SORT_FIELDS, 'name'),
});

export const ListAllSitesQuery = Type.Object({
  format: formatQuery(),
  companyId: Type.Optional(Type.String({ description: 'only the sites of this company' })),
  status: Type.Optional(Type.String({ description: 'only the sites in this status' })),
  ...pagingQuery(SITE_SORT_FIELDS, 'name'),
});

export const SiteIdParams = Type.Object({ siteId: Id() });
export const CompanyIdParams = Type.Object({ companyId: Id() });
export const FormatQuery = Type.Object({ format: formatQuery('full') });

// Named components of the OpenAPI document (src/http/openapi.ts).
nameSchemas({ Site, CreateSiteBody, UpdateSiteBody });
