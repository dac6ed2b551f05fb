// The job of an import. Being built.
import type { JobQueue } from '../../jobs/queue.ts';
import type { JobDeps } from '../module.ts';
export async function defineImportJobs(_queue: JobQueue, _deps: JobDeps): Promise<void> {}
