// `npm run policy`: the authorisation policy table as markdown, in the words of the specification.
import { policyMarkdown } from '../src/authz/describe.ts';

console.log(policyMarkdown());
