// Prints the policy in the words of the specification: for the OpenAPI description of each
// operation and for `npm run policy`.
import type { Grant, PolicyEntry } from './grant.ts';
import { POLICY } from './policy.ts';

const RELATION_WORDS: Record<string, string> = {
  any: 'any target',
  ownCompany: 'own company',
  ownBpCompany: 'the BP company of his company',
  customerOfOwnBp: 'End Customer / BP IR companies of which his company is the BP (a VAD: also the End Customers of its BP IR)',
  companyOfOwnOrganisation: 'companies of his organisation',
  ownOrganisation: 'his organisation',
  ownSite: 'own site',
  self: 'himself or what he owns',
};

function grantWords(g: Grant): string {
  const cond = g.condition ? `, only when ${g.condition}` : '';
  return `${g.roles.join(' + ')}: ${RELATION_WORDS[g.relation] ?? g.relation}${cond}`;
}

export function entryWords(entry: PolicyEntry): string[] {
  if (entry.kind === 'public') return [`public: ${entry.why}`];
  if (entry.kind === 'authenticated') return [`any signed-in user: ${entry.why}`];
  const lines = entry.grants.map(grantWords);
  if (entry.visibleBy) lines.push(`(others who pass ${entry.visibleBy} get 403, the rest 404)`);
  return lines;
}

export function describePolicy(operationId: string): string {
  const entry = POLICY[operationId];
  return entry ? `Roles: ${entryWords(entry).join('; ')}.` : '';
}

export function policyMarkdown(): string {
  const rows = Object.entries(POLICY).map(([op, e]) => `| ${op} | ${entryWords(e).join('<br>')} |`);
  return ['| operationId | who may call it |', '|---|---|', ...rows].join('\n');
}
