// Issue 6, point 5: modules own their parts. Each module brings its operations, policy section,
// errors and target kinds; installing them refuses anything declared twice; a module reaches
// another only through that module's service, never its repository.
import { describe, it } from 'node:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect } from './support/expect.ts';
import { MODULES, OPERATIONS } from '../src/modules/index.ts';
import { installModules, defineModule } from '../src/modules/module.ts';
import { ERRORS, registerErrors } from '../src/errors/catalogue.ts';
import { POLICY } from '../src/authz/policy.ts';
import { TARGETS } from '../src/authz/targets.ts';

const SRC = resolve(import.meta.dirname, '../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('issue 6, point 5: modules own their parts', () => {
  it('installing the modules fills the catalogue, the policy table and the target kinds from each module', () => {
    for (const m of MODULES) {
      for (const key of Object.keys(m.errors ?? {}))
        expect(ERRORS[key as keyof typeof ERRORS], key).toBe(m.errors![key]);
      for (const op of Object.keys(m.policy)) expect(POLICY[op], op).toBe(m.policy[op]);
      for (const kind of Object.keys(m.targets ?? {}))
        expect(TARGETS[kind as keyof typeof TARGETS], kind).toBe(m.targets![kind]);
    }
    expect(OPERATIONS.length).toBe(MODULES.reduce((n, m) => n + m.operations.length, 0));
  });

  it('a module installed twice is refused (its errors, policy entries and kinds are already there)', () => {
    expect(() => installModules([MODULES[1]])).toThrow(/declared twice/);
  });

  it('an error key or an errorDetailsCode used twice is refused', () => {
    expect(() => registerErrors('test', { VALIDATION_FAILED: { status: 400, code: 499999, message: 'x' } })).toThrow(
      /declared twice/,
    );
    expect(() => registerErrors('test', { SOME_NEW_ERROR: { status: 400, code: 400000, message: 'x' } })).toThrow(
      /already VALIDATION_FAILED's/,
    );
  });

  it("an operation without an entry in its own module's policy section is refused", () => {
    const op = MODULES[0].operations[0];
    expect(() =>
      installModules([
        defineModule({ name: 'stray', operations: [{ ...op, operationId: 'strayOperation' }], policy: {} }),
      ]),
    ).toThrow(/no entry in its policy section/);
  });

  it("no module imports another module's repository (it calls that module's service)", () => {
    const offenders: string[] = [];
    for (const file of files(join(SRC, 'modules'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/from '([^']+\.repo\.ts)'/g)) {
        const target = resolve(dirname(file), m[1]);
        if (dirname(target) !== dirname(file))
          offenders.push(`${relative(SRC, file)} imports ${relative(SRC, target)}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("platform code (everything outside src/modules) imports no module but through src/modules/index.ts (a table may name another module's table in a foreign key)", () => {
    const offenders: string[] = [];
    for (const file of files(SRC).filter((f) => !f.startsWith(join(SRC, 'modules')))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/from '([^']+)'/g)) {
        if (!m[1].startsWith('.')) continue;
        const target = resolve(dirname(file), m[1]);
        const rel = relative(join(SRC, 'modules'), target);
        const foreignKey = file.endsWith('.tables.ts') && target.endsWith('.tables.ts');
        if (!rel.startsWith('..') && rel !== 'index.ts' && rel !== 'module.ts' && !foreignKey)
          offenders.push(`${relative(SRC, file)} imports modules/${rel}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
