// The face of the applications module (docs/architecture.md, "Modules"): all that other modules
// use of applications (authentication: OAuth clients). Their files import this one, never the
// module's repository, service or tables (a `*.tables.ts` may import applications.tables.ts for a
// foreign key).
export { Application } from './applications.schemas.ts';
export { findActiveApplication, toApiApplication, type ApplicationRow } from './applications.service.ts';
