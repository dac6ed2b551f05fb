// Schemas of catalogs (route table, Commerce, +; docs/decisions.md, Commerce).
import { Type } from 'typebox';
import { DateTime, Id, Nullable, Obj, nameSchemas } from '../../http/schemas.ts';
import { formatQuery } from '../../http/format.ts';
import { pagingQuery } from '../../http/paging.ts';

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Description = Nullable(Type.String({ maxLength: 2000 }));

export const Catalog = Obj(
  {
    id: Id(),
    name: Type.String(),
    description: Nullable(Type.String()),
    isDefault: Type.Boolean({ description: 'the catalog of companies that have none and whose BPs have none' }),
    offerIds: Type.Array(Id(), { description: 'the offers of the catalog (the default offer is in every catalog)' }),
    creationDate: DateTime(),
    lastUpdateDate: DateTime(),
  },
  { description: 'a catalog of offers; fields per format level in docs/formats.md' },
);

export const CATALOG_FORMATS = {
  small: ['id', 'name', 'isDefault'],
  medium: ['id', 'name', 'description', 'isDefault', 'creationDate', 'lastUpdateDate'],
} as const;

export const CreateCatalogBody = Obj({
  name: Name,
  description: Type.Optional(Description),
  isDefault: Type.Optional(Type.Boolean({ description: 'true: this catalog becomes the default one' })),
  offerIds: Type.Optional(Type.Array(Id(), { maxItems: 1000, description: 'offers the catalog holds from the start' })),
});

export const UpdateCatalogBody = Obj({
  name: Type.Optional(Name),
  description: Type.Optional(Description),
  isDefault: Type.Optional(
    Type.Boolean({
      description:
        'true: this catalog becomes the default one (the previous default stops being it); false is refused on the default catalog',
    }),
  ),
});

export const AddOfferBody = Obj({ offerId: Id('the offer to add') });

export const CATALOG_SORT_FIELDS = ['name', 'creationDate'] as const;
export const ListCatalogsQuery = Type.Object({ format: formatQuery(), ...pagingQuery(CATALOG_SORT_FIELDS, 'name') });

export const CatalogIdParams = Type.Object({ catalogId: Id() });
export const CatalogOfferParams = Type.Object({ catalogId: Id(), offerId: Id() });
export const FormatQuery = Type.Object({ format: formatQuery('full') });

// Named components of the OpenAPI document (src/http/openapi.ts).
nameSchemas({ Catalog, CreateCatalogBody, UpdateCatalogBody, AddOfferBody });
