// Prints the policy in the words of the specification: for the OpenAPI description of each
// operation and for `npm run policy`. What an operation acts on (its target, the parents its path
// names, its second resources) comes from its declaration, passed in as `OperationShape`.
import type { Grant, PolicyEntry } from './grant.ts';
import { POLICY } from './policy.ts';
import { isTargetKind, TARGETS, type TargetKindName } from './targets.ts';

const RELATION_WORDS: Record<string, string> = {
  any: 'any target',
  ownCompany: 'own company',
  ownBpCompany: 'the BP company of his company',
  customerOfOwnBp:
    'End Customer / BP IR companies of which his company is the BP (a VAD: also the End Customers of its BP IR)',
  companyOfOwnOrganisation: 'companies of his organisation',
  ownOrganisation: 'his organisation',
  ownSite: 'own site',
  self: 'himself or what he owns',
};

/** What the declaration of an operation says it acts on. */
export interface OperationShape {
  target?: { kind: TargetKindName; parents?: { readonly [K in TargetKindName]?: string } };
  second?: Record<string, { kind: TargetKindName }>;
  scope?: TargetKindName | 'caller';
}

function grantWords(g: Grant): string {
  const cond = g.condition ? `, only when ${g.condition}` : '';
  return `${g.roles.join(' + ')}: ${RELATION_WORDS[g.relation] ?? g.relation}${cond}`;
}

export function entryWords(entry: PolicyEntry, shape: OperationShape = {}): string[] {
  if (entry.kind === 'public') return [`public: ${entry.why}`];
  if (entry.kind === 'authenticated') return [`any signed-in user: ${entry.why}`];
  const lines = entry.grants.map(grantWords);
  for (const [name, list] of Object.entries(entry.second ?? {})) {
    const kind = shape.second?.[name]?.kind;
    lines.push(`and on the ${name}${kind ? ` (a ${kind})` : ''}: ${list.map(grantWords).join('; ')}`);
  }
  const t = shape.target;
  if (t) {
    const parents = Object.keys(t.parents ?? {}).filter(isTargetKind);
    const readers = [TARGETS[t.kind].readBy, entry.visibleBy, ...parents.map((p) => TARGETS[p].readBy)].filter(Boolean);
    // Each level of the path: a child of another parent is 404 at that level.
    const under = parents.length
      ? ` under the ${parents.join(' under the ')} of the path (another ${parents.join(' or ')}'s: 404)`
      : '';
    lines.push(
      `target: ${/^[aeiou]/.test(t.kind) ? 'an' : 'a'} ${t.kind}${under}; those who pass ${[...new Set(readers)].join(' or ')} get 403, the rest 404`,
    );
  } else if (shape.scope === 'caller') {
    lines.push('no resource: a caller holding none of these grants gets 403');
  } else if (shape.scope) {
    lines.push(`a list of ${shape.scope}s: each caller sees those his grants reach; no grant: 403`);
  }
  return lines;
}

/**
 * The roles that may call an operation, for the OpenAPI document's `x-svc-roles` (issue 28: the
 * console shows only what the caller's roles allow, from the service's own table): one list per
 * grant, the roles held together, without duplicates. Undefined for public operations and those
 * any signed-in user may call. The target's relation and conditions stay the service's to judge.
 */
export function policyRoleSets(operationId: string): string[][] | undefined {
  const entry = POLICY[operationId];
  if (!entry || entry.kind !== 'grants') return undefined;
  const sets = new Map(entry.grants.map((g) => [[...g.roles].sort().join('+'), [...g.roles].sort()]));
  return [...sets.values()];
}

export function describePolicy(operationId: string, shape: OperationShape = {}): string {
  const entry = POLICY[operationId];
  return entry ? `Roles: ${entryWords(entry, shape).join('; ')}.` : '';
}

export function policyMarkdown(shapes: Record<string, OperationShape> = {}): string {
  const rows = Object.entries(POLICY).map(([op, e]) => `| ${op} | ${entryWords(e, shapes[op]).join('<br>')} |`);
  return ['| operationId | who may call it |', '|---|---|', ...rows].join('\n');
}
