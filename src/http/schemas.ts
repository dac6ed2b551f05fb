// Schema helpers shared by every operation: closed objects (unknown fields are removed by the
// validator, never stored and never echoed), envelopes of document 1 and the error body.
import { Type, type TSchema, type TProperties } from 'typebox';

/** A body or response object: fields beyond the declared ones are dropped, not refused. */
export const Obj = <P extends TProperties>(props: P, opts: { description?: string } = {}) =>
  Type.Object(props, { additionalProperties: false, ...opts });

export const Id = (description = 'opaque identifier') => Type.String({ minLength: 1, maxLength: 64, description });
export const DateTime = () => Type.String({ format: 'date-time' });

export const ErrorSchema = Type.Object(
  {
    errorCode: Type.Integer(),
    errorMsg: Type.String(),
    errorDetails: Type.Object({}, { additionalProperties: true, description: 'always an object; {} when there is nothing to add' }),
    errorDetailsCode: Type.Integer(),
  },
  { $id: 'Error', description: 'error body of document 1' },
);

export const dataEnvelope = (item: TSchema) => Obj({ data: item });
export const listEnvelope = (item: TSchema) =>
  Obj({ data: Type.Array(item), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() });
export const statusEnvelope = (item: TSchema) => Obj({ status: Type.String(), data: item });
