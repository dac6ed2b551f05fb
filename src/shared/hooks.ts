// Hooks of a module's face (docs/architecture.md, "Modules"): where a module that may not import
// another (their imports go one way only) lets that other module register, at install, what it
// does when something happens here, or what it answers here. Registered when the registering
// module is loaded (src/modules/index.ts loads every module before installing them).
import type { Executor } from '../db/client.ts';

/** Callbacks run in order, in the caller's transaction, when something happens. */
export interface Hook<A extends unknown[]> {
  register(fn: (exec: Executor, ...args: A) => Promise<void>): void;
  run(exec: Executor, ...args: A): Promise<void>;
}

export function hook<A extends unknown[]>(): Hook<A> {
  const fns: ((exec: Executor, ...args: A) => Promise<void>)[] = [];
  return {
    register: (fn) => void fns.push(fn),
    run: async (exec, ...args) => {
      for (const fn of fns) await fn(exec, ...args);
    },
  };
}

/** One answer that another module provides (exactly once); asking before it did is a programming error. */
export interface Provided<T> {
  provide(value: T): void;
  readonly get: T;
}

export function provided<T>(what: string): Provided<T> {
  let value: T | undefined;
  return {
    provide(v) {
      if (value !== undefined) throw new Error(`${what} is provided twice`);
      value = v;
    },
    get get() {
      if (value === undefined) throw new Error(`${what} is not provided: is its module installed?`);
      return value;
    },
  };
}
