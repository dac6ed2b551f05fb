// The answer serializer is given nullable fields as `nullable: true` rather than as an anyOf
// (src/http/serializer-schemas.ts): an answer is written without a schema validation per nullable
// field (issue 24, point 5: the per-request path), and the bytes written are those the declared
// schema gives.
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Type } from 'typebox';
import fastJson from 'fast-json-stringify';
import { expect } from '../support/expect.ts';
import { serializerSchema } from '../../src/http/serializer-schemas.ts';
import { DateTimeText, Nullable, OneOf } from '../../src/http/schemas.ts';
import { Company } from '../../src/modules/admin/companies/companies.schemas.ts';

const plain = (s: unknown) => JSON.parse(JSON.stringify(s));

describe('answer schemas as the serializer is given them', () => {
  it('a nullable field becomes its own schema with nullable: true, with no anyOf left', () => {
    expect(serializerSchema(plain(Nullable(Type.String({ maxLength: 5 }))))).toEqual({
      type: 'string',
      maxLength: 5,
      nullable: true,
    });
    expect(serializerSchema(plain(Nullable(Type.Object({ a: Nullable(Type.Integer()) }))))).toEqual({
      type: 'object',
      properties: { a: { type: 'integer', nullable: true } },
      required: ['a'],
      nullable: true,
    });
  });

  it('an enumeration (constants of one type) becomes that type; a union of two shapes stays a union', () => {
    expect(serializerSchema(plain(Nullable(OneOf(['a', 'b']))))).toMatchObject({ type: 'string', nullable: true });
    const mixed = plain(Type.Union([Type.Object({ x: Type.String() }), Type.String(), Type.Null()]));
    expect(serializerSchema(mixed)).toEqual(mixed);
  });

  it('a company answer is written with the same bytes as with the declared schema, for any values', () => {
    const declared = plain(Type.Object({ data: Company }));
    const before = fastJson(declared);
    const after = fastJson(serializerSchema(declared) as object);
    // Values the declared schema takes (the service answers no other: a value it does not take
    // was an error before and is not compared), or null where the field may be null.
    const value = (s: Record<string, unknown>): fc.Arbitrary<unknown> => {
      if (Array.isArray(s.anyOf)) return fc.oneof(...s.anyOf.map((o) => value(o)));
      if (s.const !== undefined) return fc.constant(s.const);
      if (s.type === 'null') return fc.constant(null);
      if (s.type === 'string') {
        if (s.format === 'date-time')
          return fc
            .date({ noInvalidDate: true, min: new Date('1970-01-01'), max: new Date('2100-01-01') })
            .map((d) => d.toISOString());
        if (s.format === 'email') return fc.emailAddress();
        return fc.string({ minLength: Number(s.minLength ?? 0), maxLength: Number(s.maxLength ?? 12) });
      }
      if (s.type === 'integer') return fc.integer();
      if (s.type === 'number') return fc.double({ noNaN: true, noDefaultInfinity: true });
      if (s.type === 'boolean') return fc.boolean();
      if (s.type === 'array') return fc.array(value(s.items as Record<string, unknown>), { maxLength: 2 });
      if (s.type === 'object' && s.properties)
        return fc.record(Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, value(p)])));
      return fc.constant({});
    };
    fc.assert(
      fc.property(value(declared), (answer) => {
        expect(after(answer)).toBe(before(answer));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps DateTimeText and other keywords beside nullable', () => {
    expect(serializerSchema(plain(Nullable(DateTimeText())))).toEqual({
      type: 'string',
      format: 'date-time',
      nullable: true,
    });
  });
});
