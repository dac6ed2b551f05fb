import { Type } from 'typebox';
import { DateTime, Id, Obj, OneOf, nameSchemas } from '../../../http/schemas.ts';
import { formatQuery } from '../../../http/format.ts';
import { pagingQuery } from '../../../http/paging.ts';

export const VISIBILITIES = ['public', 'private'] as const;
/** The union the visibility column carries (organisations.tables.ts). */
export type OrganisationVisibility = (typeof VISIBILITIES)[number];
const Visibility = OneOf(VISIBILITIES);
const Name = Type.String({ minLength: 1, maxLength: 255 });

/** Document 3, Organisation. */
export const Organisation = Obj(
  {
    id: Id(),
    name: Type.String(),
    visibility: Visibility,
    creationDate: DateTime(),
  },
  { description: 'an organisation; fields per format level in docs/formats.md' },
);

export const ORGANISATION_FORMATS = {
  small: ['id', 'name'],
  medium: ['id', 'name', 'visibility'],
} as const;

/** A company as the organisation operations answer it (the company resource is the companies module's). */
export const OrganisationCompany = Obj(
  {
    id: Id(),
    name: Type.String(),
    organisationId: Type.Union([Id(), Type.Null()]),
  },
  { description: 'a company of an organisation: its id, name and organisation' },
);

export const ORGANISATION_COMPANY_FORMATS = {
  small: ['id', 'name'],
  medium: ['id', 'name', 'organisationId'],
} as const;

export const CreateOrganisationBody = Obj({
  name: Name,
  visibility: Type.Optional(Visibility),
});

export const UpdateOrganisationBody = Obj({
  name: Type.Optional(Name),
  visibility: Type.Optional(Visibility),
});

export const LinkCompanyBody = Obj({ companyId: Id('the company to link') });
/** The answer is the linked Company (document 3), with the levels and options of getCompany. */
export const LinkCompanyQuery = Type.Object({
  format: formatQuery('full'),
  selectedThemeObj: Type.Optional(Type.Boolean({ description: 'return selectedTheme as an object' })),
});

export const ORGANISATION_SORT_FIELDS = ['name', 'creationDate', 'visibility'] as const;
export const ORGANISATION_COMPANY_SORT_FIELDS = ['name'] as const;

export const ListOrganisationsQuery = Type.Object({
  format: formatQuery(),
  ...pagingQuery(ORGANISATION_SORT_FIELDS, 'name'),
});

export const ListOrganisationCompaniesQuery = Type.Object({
  format: formatQuery(),
  ...pagingQuery(ORGANISATION_COMPANY_SORT_FIELDS, 'name'),
});

export const OrganisationIdParams = Type.Object({ organisationId: Id() });
export const OrganisationCompanyParams = Type.Object({ organisationId: Id(), companyId: Id() });
export const FormatQuery = Type.Object({ format: formatQuery('full') });

// Named components of the OpenAPI document (src/http/openapi.ts).
nameSchemas({ Organisation, OrganisationCompany, CreateOrganisationBody, UpdateOrganisationBody, LinkCompanyBody });
