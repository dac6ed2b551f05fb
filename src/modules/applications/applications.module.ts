// The applications module: Applications (route table, a supporting resource).
import { defineModule } from '../module.ts';
import { applicationOperations } from './applications.operations.ts';
import { applicationsPolicy } from './applications.policy.ts';
import { applicationsErrors } from './applications.errors.ts';
import { apiKeyIsActive } from './applications.service.ts';
import { AppError } from '../../errors/catalogue.ts';
import { applications } from './applications.tables.ts';
import { targetKind, type TablesOf, type TargetKind } from '../../authz/targets.ts';

export const applicationsTargets = {
  application: targetKind(applications, {
    cols: { company: applications.companyId, owner: applications.ownerId },
    readBy: 'getApplication',
    parents: { company: applications.companyId },
  }),
} satisfies Record<string, TargetKind>;

declare module '../../authz/targets.ts' {
  interface TargetTables extends TablesOf<typeof applicationsTargets> {}
}

export const applicationsModule = defineModule({
  name: 'applications',
  operations: applicationOperations,
  policy: applicationsPolicy,
  errors: applicationsErrors,
  targets: applicationsTargets,
  hooks: (app, deps) =>
    // Doc 1, Authentication 4: an APIKey that does not match an active application: 403 Not Allowed.
    // Callback style, so that requests without the header (nearly all) cost no promise.
    app.addHook('onRequest', (req, _reply, done) => {
      const key = req.headers.apikey;
      if (key === undefined) return done();
      apiKeyIsActive(deps.database.db, Array.isArray(key) ? key[0] : key).then(
        (active) => (active ? done() : done(new AppError('API_KEY_NOT_ALLOWED'))),
        (err: Error) => done(err),
      );
    }),
});
