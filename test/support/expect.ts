// Jest's standalone `expect`, with an optional message shown above a failure, as in
// `expect(res.statusCode, 'updateUser / company_admin').toBe(200)`.
import { expect as base } from 'expect';

function withMessage<T extends object>(target: T, message: string): T {
  return new Proxy(target, {
    get(obj, prop) {
      const value = Reflect.get(obj, prop) as unknown;
      if (typeof value === 'function') {
        return (...args: unknown[]) => {
          try {
            const out = (value as (...a: unknown[]) => unknown).apply(obj, args);
            if (out instanceof Promise) {
              return out.catch((e: Error) => {
                e.message = `${message}\n${e.message}`;
                throw e;
              });
            }
            return out;
          } catch (e) {
            (e as Error).message = `${message}\n${(e as Error).message}`;
            throw e;
          }
        };
      }
      return value && typeof value === 'object' ? withMessage(value, message) : value;
    },
  });
}

function expectWithMessage<T>(actual: T, message?: string): ReturnType<typeof base<T>> {
  const m = base(actual);
  return message ? withMessage(m, message) : m;
}

export const expect = Object.assign(expectWithMessage, {
  any: base.any,
  anything: base.anything,
  arrayContaining: base.arrayContaining,
  objectContaining: base.objectContaining,
  stringContaining: base.stringContaining,
  stringMatching: base.stringMatching,
  not: base.not,
});
