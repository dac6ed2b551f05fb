// Document 3, Customisation: templates, the customisation keys of a company (feature
// customisation), its custom elements, and its service description PDF.
import { Type } from 'typebox';
import { Binary } from '../../../http/binary.ts';
import { defineOperation, type AnyOperation } from '../../../http/operation.ts';
import { Id, Obj } from '../../../http/schemas.ts';
import { pagingQuery, parsePaging } from '../../../http/paging.ts';
import {
  COMPANY_MANAGED_KEYS,
  CompanyValuesPatch,
  CompanyValuesSchema,
  UserValuesSchema,
} from './customisation.keys.ts';
import * as service from './customisation.service.ts';
import * as repo from './customisation.repo.ts';
import { loadDescription, renderDescription } from './service-description.ts';
import { recordOf } from '../../../shared/json-values.ts';

const tag = 'Customisation';
const A = '/admin/v1.0';
const C = `${A}/companies/:companyId`;
const CompanyIdParams = Obj({ companyId: Id('company id') });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const Template = Obj(
  {
    id: Id(),
    name: Type.String(),
    description: Nullable(Type.String()),
    isDefault: Type.Boolean(),
    values: CompanyValuesSchema,
  },
  { description: 'a customisation template: company values of the customisation keys' },
);

const TemplateRef = Type.Union([Obj({ id: Id(), name: Nullable(Type.String()) }), Type.Null()], {
  description: 'the template applied last, or null',
});

const EnabledDisabled = Type.String({ description: '`enabled` or `disabled`' });
const FeatureCustomisation = Obj({
  companyId: Id(),
  selectedAppCustomisationTemplate: TemplateRef,
  customisations: CompanyValuesSchema,
  companyManaged: Obj(
    recordOf(COMPANY_MANAGED_KEYS, () => EnabledDisabled),
    { description: 'keys still managed by the company operations (read-only here)' },
  ),
});

const Applied = Obj({
  companyId: Type.Optional(Id()),
  userId: Type.Optional(Id()),
  templateId: Id(),
  templateName: Type.String(),
  customisations: Type.Union([CompanyValuesSchema, UserValuesSchema]),
});

const CustomElements = Obj({
  companyId: Id(),
  customDataKeys: Type.Array(Type.String(), { description: 'keys of the company customData' }),
  selectedAppCustomisationTemplate: TemplateRef,
  customisationTemplates: Type.Array(Obj({ id: Id(), name: Type.String(), isDefault: Type.Boolean() }), {
    description: 'templates that can be applied',
  }),
  customisationKeys: Type.Array(Type.String(), {
    description: 'keys managed through templates and app-feature-customisation',
  }),
  companyManagedKeys: Type.Array(Type.String(), { description: 'keys managed by the company operations' }),
});

export const listCustomisationTemplates = defineOperation({
  operationId: 'listCustomisationTemplates',
  method: 'GET',
  path: `${A}/customisations/templates`,
  tag,
  summary: 'List the customisation templates',
  query: Obj({
    name: Type.Optional(Type.String({ maxLength: 255, description: 'part of the name, case-insensitive' })),
    ...pagingQuery(service.TEMPLATE_SORT_FIELDS, 'name'),
  }),
  response: Template,
  envelope: 'list',
  command: (ctx, { query }) =>
    service.listTemplates(ctx.db, query.name, parsePaging(query, service.TEMPLATE_SORT_FIELDS, 'name')),
});

export const getCustomisationTemplate = defineOperation({
  operationId: 'getCustomisationTemplate',
  errors: ['CUSTOMISATION_TEMPLATE_NOT_FOUND'],
  method: 'GET',
  path: `${A}/customisations/templates/:templateId`,
  tag,
  summary: 'Get a customisation template',
  params: Obj({ templateId: Id('template id') }),
  response: Template,
  envelope: 'data',
  command: (ctx, { params }) => service.getTemplate(ctx.db, params.templateId),
});

export const applyCustomisationTemplate = defineOperation({
  operationId: 'applyCustomisationTemplate',
  errors: ['CUSTOMISATION_TARGET_REQUIRED', 'CUSTOMISATION_TEMPLATE_NOT_FOUND', 'CUSTOMISATION_TEMPLATE_REQUIRED'],
  method: 'POST',
  path: `${A}/customisations/templates/apply`,
  tag,
  summary: 'Apply a customisation template to a company or to a user',
  description:
    "Body: templateId or templateName (one of them), and companyId or userId (at most one; neither: the caller's company). A company gets the template's values and selectedAppCustomisationTemplate; a user gets the values as his own.",
  body: Obj({
    templateId: Type.Optional(Id('template id')),
    templateName: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'template name, case-insensitive' }),
    ),
    companyId: Type.Optional(Id("company the template is applied to; default the caller's company")),
    userId: Type.Optional(Id('user the template is applied to')),
  }),
  response: Applied,
  envelope: 'status',
  successStatus: 200,
  target: { kind: 'company', from: 'body', field: 'companyId', fallback: 'companyId' },
  second: { user: { kind: 'user', from: 'body', field: 'userId' } },
  command: (ctx, { body }) => service.applyTemplate(ctx.db, ctx.target, body),
});

export const getFeatureCustomisation = defineOperation({
  operationId: 'getFeatureCustomisation',
  method: 'GET',
  path: `${C}/app-feature-customisation`,
  tag,
  summary: 'Get the feature customisation elements of a company (its customisation keys)',
  params: CompanyIdParams,
  response: FeatureCustomisation,
  envelope: 'data',
  target: { kind: 'company', from: 'params', field: 'companyId', extras: repo.FEATURE_CUSTOMISATION_EXTRAS },
  command: (ctx) => service.featureCustomisation(ctx.db, ctx.target, ctx.extras.templateRef),
});

export const setFeatureCustomisation = defineOperation({
  operationId: 'setFeatureCustomisation',
  method: 'PUT',
  path: `${C}/app-feature-customisation`,
  tag,
  summary: 'Set feature customisation elements of a company',
  description:
    'Body: customisation keys with `enabled` or `disabled`; absent keys are unchanged, unknown keys ignored, an empty object changes nothing.',
  params: CompanyIdParams,
  body: CompanyValuesPatch,
  response: FeatureCustomisation,
  envelope: 'data',
  target: { kind: 'company', from: 'params', field: 'companyId' },
  command: (ctx, { body }) => service.setFeatureCustomisation(ctx.db, ctx.target, body),
});

export const listCustomElements = defineOperation({
  operationId: 'listCustomElements',
  method: 'GET',
  path: `${C}/custom-elements`,
  tag,
  summary: 'List the custom elements of a company: custom data keys and customisation template elements',
  params: CompanyIdParams,
  response: CustomElements,
  envelope: 'data',
  target: { kind: 'company', from: 'params', field: 'companyId', extras: repo.CUSTOM_ELEMENTS_EXTRAS },
  command: (ctx) =>
    service.customElements(ctx.db, ctx.target, {
      ref: ctx.extras.templateRef,
      templates: ctx.extras.templates,
    }),
});

export const getServiceDescription = defineOperation({
  operationId: 'getServiceDescription',
  method: 'GET',
  path: `${C}/service-description`,
  tag,
  summary: 'Get the service description PDF of a company',
  params: CompanyIdParams,
  response: Binary({
    types: ['application/pdf'],
    description: 'the service description, a PDF shown inline (file name service-description-{companyId}.pdf)',
  }),
  envelope: 'binary',
  target: { kind: 'company', from: 'params', field: 'companyId' },
  command: async (ctx) => ({
    mediaType: 'application/pdf',
    fileName: `service-description-${ctx.target.id}.pdf`,
    disposition: 'inline' as const,
    body: await renderDescription(await loadDescription(ctx.db, ctx.target), ctx.now),
  }),
});

export const customisationOperations: AnyOperation[] = [
  getServiceDescription,
  listCustomElements,
  getFeatureCustomisation,
  setFeatureCustomisation,
  listCustomisationTemplates,
  getCustomisationTemplate,
  applyCustomisationTemplate,
];
