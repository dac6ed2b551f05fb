// Schema helpers shared by every operation: closed objects (unknown fields are removed by the
// validator, never stored and never echoed), envelopes of document 1 and the error body.
import { Type, type TSchema, type TProperties } from 'typebox';
import { field } from '../shared/json-values.ts';

/** A body or response object: fields beyond the declared ones are dropped, not refused. */
export const Obj = <P extends TProperties>(props: P, opts: { description?: string } = {}) =>
  Type.Object(props, { additionalProperties: false, ...opts });

/**
 * Names schemas for the OpenAPI document: each becomes a component (`#/components/schemas/<name>`)
 * referenced wherever it appears, instead of a copy inlined in every operation. The title is an
 * annotation: validation and serialisation ignore it.
 */
export function nameSchemas(schemas: Record<string, TSchema>): void {
  for (const [name, schema] of Object.entries(schemas)) {
    const title = field(schema, 'title');
    if (title === undefined || title === null) Object.assign(schema, { title: name });
  }
}

export const Id = (description = 'opaque identifier') => Type.String({ minLength: 1, maxLength: 64, description });
/**
 * A date-time string of the document. Handlers may return a Date: the serializer writes it as
 * ISO 8601, so the static type accepts both.
 */
export const DateTime = () => Type.Unsafe<Date | string>(Type.String({ format: 'date-time' }));
/** A date-time string of a request (query or body): always text. */
export const DateTimeText = (opts: { description?: string } = {}) => Type.String({ format: 'date-time', ...opts });

/** One of a list of strings (an enumeration of the document), typed as their union. */
export const OneOf = <T extends string>(values: readonly T[], opts: { description?: string } = {}) =>
  Type.Unsafe<T>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      opts,
    ),
  );

/**
 * A value or null; typed as such (an untyped nullable loses the value's type). Null is kept as
 * null: the validator does not coerce, and the lossless pass before it (coerce.ts) leaves it alone
 * here (it used to become "" through the string branch of the union).
 */
export const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

export const ErrorSchema = Type.Object(
  {
    errorCode: Type.Integer(),
    errorMsg: Type.String(),
    errorDetails: Type.Object(
      {},
      { additionalProperties: true, description: 'always an object; {} when there is nothing to add' },
    ),
    errorDetailsCode: Type.Integer(),
  },
  { $id: 'Error', description: 'error body of document 1' },
);

export const dataEnvelope = (item: TSchema) => Obj({ data: item });
export const listEnvelope = (item: TSchema) =>
  Obj({ data: Type.Array(item), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() });
export const statusEnvelope = (item: TSchema) => Obj({ status: Type.String(), data: item });
