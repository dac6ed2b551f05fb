// Issue 6, points 1 and 2: what a declaration must say before its route is registered. Nothing
// is allowed by default: an operation whose policy has grants needs a target or a list scope;
// the second resources it declares are those its policy grants; a parent must be a parent.
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { expect } from '../support/expect.ts';
import { defineOperation, registerOperation, type AnyOperation } from '../../src/http/operation.ts';
import type { AppDeps } from '../../src/http/context.ts';
import { OPERATIONS } from '../../src/modules/index.ts';
import { POLICY } from '../../src/authz/policy.ts';

import { loadConfig } from '../../src/config.ts';
const deps = { config: loadConfig({}) } as AppDeps;
const base = {
  method: 'GET',
  path: '/test/declarations',
  tag: 'Test',
  summary: 'test',
  response: Type.Object({}),
  envelope: 'data',
  handler: async () => ({}),
} as const;
const register = (op: AnyOperation) => () => registerOperation(Fastify(), deps, op);

describe('issue 6, point 2: registration refuses what could allow by default', () => {
  it('an operation whose policy has grants, declared with neither target nor scope, is refused', () => {
    expect(register(defineOperation({ ...base, operationId: 'getSite' }))).toThrow(/neither a target nor a scope/);
  });

  it('the same operation with a scope, or with a target, registers', () => {
    expect(register(defineOperation({ ...base, operationId: 'getSite', scope: 'site' }))).not.toThrow();
    expect(
      register(
        defineOperation({
          ...base,
          operationId: 'getSite',
          path: '/test/:siteId',
          target: { kind: 'site', from: 'params', field: 'siteId' },
        }),
      ),
    ).not.toThrow();
  });

  it('an operation with no policy entry is refused', () => {
    expect(register(defineOperation({ ...base, operationId: 'noSuchOperation', scope: 'site' }))).toThrow(
      /no policy entry/,
    );
  });

  it('a public operation may not declare a target (its policy would never be applied)', () => {
    expect(
      register(
        defineOperation({
          ...base,
          operationId: 'listCountries',
          path: '/test/:siteId',
          target: { kind: 'site', from: 'params', field: 'siteId' },
        }),
      ),
    ).toThrow(/policy entry is public/);
  });

  it('every served operation with grants declares a target or a scope', () => {
    for (const op of OPERATIONS)
      if (POLICY[op.operationId]?.kind === 'grants') expect(Boolean(op.target || op.scope), op.operationId).toBe(true);
  });
});

describe('issue 6, point 1: parents and second resources', () => {
  const site = { kind: 'site', from: 'params', field: 'siteId' } as const;
  it('a second resource the policy does not grant is refused, and one granted but not declared', () => {
    expect(
      register(
        defineOperation({
          ...base,
          operationId: 'getSite',
          path: '/test/:siteId',
          target: site,
          second: { company: { kind: 'company', from: 'query', field: 'companyId' } },
        }),
      ),
    ).toThrow(/second resources/);
    expect(
      register(
        defineOperation({ ...base, operationId: 'updateSite', method: 'PUT', path: '/test/:siteId', target: site }),
      ),
    ).toThrow(/second resources declared \(\) and granted \(destination\)/);
  });

  it('a parent that is not a parent of the target kind is refused', () => {
    expect(
      register(
        defineOperation({
          ...base,
          operationId: 'getSite',
          path: '/test/:organisationId/:siteId',
          target: { ...site, parents: { organisation: 'organisationId' } },
        }),
      ),
    ).toThrow(/has no organisation parent/);
  });
});
