// `npm run policy`: the authorisation policy table as markdown, in the words of the specification,
// with what each operation acts on (target, parent of its path, second resources) from its declaration.
import { policyMarkdown } from '../src/authz/describe.ts';
import { OPERATIONS } from '../src/modules/index.ts';

console.log(policyMarkdown(Object.fromEntries(OPERATIONS.map((op) => [op.operationId, op]))));
