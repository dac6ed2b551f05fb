// Modules own their parts (docs/architecture.md, "Modules"). Each module brings its operations,
// policy section, errors and target kinds; installing them refuses anything declared twice. A
// module reaches another only through that module's face (`<name>.api.ts`): no other file of
// another module is imported (a `*.tables.ts` may import a `*.tables.ts` for a foreign key), its
// raw SQL names only its own tables, the imports between modules go one way (no cycle), and the
// facts about a company are read in one place.
import { describe, it } from 'node:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { expect } from './support/expect.ts';
import { MODULES, OPERATIONS } from '../src/modules/index.ts';
import { installModules, defineModule } from '../src/modules/module.ts';
import { ERRORS, registerErrors } from '../src/errors/catalogue.ts';
import { POLICY } from '../src/authz/policy.ts';
import { TARGETS } from '../src/authz/targets.ts';
import { companyCommerce } from '../src/modules/admin/companies/companies.api.ts';
import { companyIsBP, passwordChanged, userArrived } from '../src/modules/admin/users/users.api.ts';
import { systemsOfSite } from '../src/modules/admin/sites/sites.api.ts';
import { subscriptionChanged } from '../src/modules/commerce/commerce.api.ts';

const SRC = resolve(import.meta.dirname, '../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const MODULES_DIR = join(SRC, 'modules');

/** The folder of each module: those of the `*.module.ts` files src/modules/index.ts installs. */
const MODULE_DIRS = [...readFileSync(join(MODULES_DIR, 'index.ts'), 'utf8').matchAll(/from '(\.\/[^']+\.module\.ts)'/g)]
  .map((m) => dirname(resolve(MODULES_DIR, m[1]!)))
  .sort((a, b) => b.length - a.length);

/** The module a file belongs to (the deepest module folder holding it), or undefined (index.ts, module.ts). */
const moduleOf = (file: string) => MODULE_DIRS.find((d) => file.startsWith(d + sep));
const moduleName = (dir: string) => basename(dir);
/** A module's face: `<folder>/<folder name>.api.ts`. */
const faceOf = (dir: string) => join(dir, `${basename(dir)}.api.ts`);

/** The relative imports of a file (import, export ... from, import()), resolved. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'(\.[^']*)'/g)].map((m) => resolve(dirname(file), m[1]!));
}

const foreignKey = (file: string, target: string) => file.endsWith('.tables.ts') && target.endsWith('.tables.ts');

/** Imports of a module file into another module: [from module, to module, file, target]. */
function crossModuleImports(): [string, string, string, string][] {
  const out: [string, string, string, string][] = [];
  for (const file of files(MODULES_DIR)) {
    const from = moduleOf(file);
    if (!from) continue;
    for (const target of importsOf(file)) {
      const to = moduleOf(target);
      if (to && to !== from) out.push([from, to, file, target]);
    }
  }
  return out;
}

/**
 * The SQL text of a source file: the file without its comments and without its single-quoted
 * strings (messages, names, paths), but with the strings handed to sql.raw; its template literals
 * (sql`...`, sql.raw(`...`)) stay whole.
 */
function sqlText(file: string): string {
  const text = readFileSync(file, 'utf8');
  const raw = [...text.matchAll(/sql\.raw\(\s*'([^'\n]*)'/g)].map((m) => m[1]);
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
    .replace(/'(?:[^'\\\n]|\\.)*'/g, "''");
  return [code, ...raw].join('\n');
}

describe('modules own their parts', () => {
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

  it("no module imports another module's repository (it calls that module's face)", () => {
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

  it("no file of a module imports another module's files but its face (`<name>.api.ts`; a table may import a table for a foreign key)", () => {
    const offenders = crossModuleImports()
      .filter(([, to, file, target]) => target !== faceOf(to) && !foreignKey(file, target))
      .map(([, , file, target]) => `${relative(SRC, file)} imports ${relative(SRC, target)}`);
    expect(offenders).toEqual([]);
  });

  it("raw SQL in a module names only its own module's tables (another module's are read through that module's face)", () => {
    const owner = new Map<string, string>();
    for (const file of files(MODULES_DIR).filter((f) => f.endsWith('.tables.ts'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/pgTable\(\s*'([^']+)'/g)) owner.set(m[1]!, moduleOf(file)!);
    }
    expect(owner.size).toBeGreaterThan(10);
    const names = [...owner.keys()].sort((a, b) => b.length - a.length).join('|');
    const naming = new RegExp(
      `\\b(?:FROM|JOIN|UPDATE|INSERT\\s+INTO|DELETE\\s+FROM|USING|ONLY)\\s+"?(${names})\\b(?!\\s*\\()`,
      'gi',
    );
    const offenders: string[] = [];
    for (const file of files(MODULES_DIR)) {
      const mine = moduleOf(file);
      if (!mine) continue;
      for (const m of sqlText(file).matchAll(naming)) {
        const theirs = owner.get(m[1]!.toLowerCase());
        if (theirs !== mine) offenders.push(`${relative(SRC, file)}: ${m[0]} (${moduleName(theirs!)}'s table)`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the imports between modules go one way: the module graph has no cycle (foreign keys between tables aside)', () => {
    const edges = new Map<string, Set<string>>();
    for (const [from, to, file, target] of crossModuleImports()) {
      if (foreignKey(file, target)) continue;
      edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (m: string, path: string[]) => {
      if (state.get(m) === 'done') return;
      if (state.get(m) === 'open') {
        cycles.push([...path.slice(path.indexOf(m)), m].map(moduleName).join(' -> '));
        return;
      }
      state.set(m, 'open');
      for (const n of edges.get(m) ?? []) visit(n, [...path, m]);
      state.set(m, 'done');
    };
    for (const m of MODULE_DIRS) visit(m, []);
    expect(cycles).toEqual([]);
    expect(edges.size).toBeGreaterThan(5);
  });

  it("the facts about a company are defined once, in companies' face", () => {
    const definitions: string[] = [];
    for (const file of files(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(
        /^\s*(?:export\s+)?(?:(?:async\s+)?function\s+companyFacts|(?:const|let)\s+companyFacts\s*=|(?:interface|type)\s+CompanyFacts\s*[={<])/gm,
      ))
        definitions.push(
          `${relative(SRC, file)}: ${m[0]
            .trim()
            .replace(/^export\s+(async\s+)?/, '')
            .replace(/\s*[={<]$/, '')}`,
        );
    }
    expect(definitions.sort()).toEqual([
      'modules/admin/companies/companies.api.ts: function companyFacts',
      'modules/admin/companies/companies.api.ts: type CompanyFacts',
    ]);
  });

  it('the hooks between modules are registered when the modules are installed', () => {
    expect(() => companyCommerce.get).not.toThrow();
    expect(() => companyIsBP.get).not.toThrow();
    expect(() => systemsOfSite.get).not.toThrow();
    for (const h of [userArrived, passwordChanged, subscriptionChanged]) expect(typeof h.run).toBe('function');
  });
});

describe('types that catch mistakes', () => {
  // Lint forbids type assertions in src/ outside src/db/ (eslint.config.js); the few left are
  // disabled one by one with their reason. Fewer than five may remain.
  it('fewer than five type assertions remain outside src/db/, each with its reason', () => {
    const left = files(SRC)
      .filter((f) => !f.startsWith(join(SRC, 'db') + sep))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .filter((l) => l.includes('eslint-disable') && l.includes('consistent-type-assertions'))
          .map((l) => `${relative(SRC, f)}: ${l.trim()}`),
      );
    expect(left.length).toBeLessThan(5);
    for (const l of left) expect(l).toMatch(/consistent-type-assertions -- \S/);
  });
});
