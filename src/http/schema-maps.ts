// The same change applied to every property of an object schema (all optional, all nullable),
// keeping each property's own type: TypeScript cannot type a function from a per-key type change,
// so the change is named from a table of changes and the record is asserted once, here.
import { Type, type TOptional, type TProperties, type TSchema } from 'typebox';
import { Nullable } from './schemas.ts';

interface Changes<S extends TSchema> {
  optional: TOptional<S>;
  nullable: ReturnType<typeof Nullable<S>>;
}
const CHANGES: { [C in keyof Changes<TSchema>]: (s: TSchema) => Changes<TSchema>[C] } = {
  optional: (s) => Type.Optional(s),
  nullable: (s) => Nullable(s),
};

/** Every property of `props` changed by `change` ('optional' or 'nullable'). */
export function mapProps<P extends TProperties, C extends keyof Changes<TSchema>>(
  props: P,
  change: C,
): { [K in keyof P]: Changes<P[K]>[C] } {
  const out: TProperties = {};
  for (const [k, v] of Object.entries(props)) out[k] = CHANGES[change](v);
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- each entry was changed by CHANGES[change]
  return out as { [K in keyof P]: Changes<P[K]>[C] };
}
