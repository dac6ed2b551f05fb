// The periodic sweep of greeting audio (issue 26, point 8): every hour, the audio files of
// greetings and group voicemail greetings that no row names are removed (a crash between the
// write of a file and the commit of its row, or between a row's delete and its file's), with the
// stored files of scopes whose group or welcome service is gone. docs/decisions.md, Greetings.
import type { JobDeps } from '../module.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { sweepGreetingFiles } from './greetings.service.ts';

export const GREETING_SWEEP_JOB = 'pbx.greeting-sweep';

export async function defineGreetingJobs(queue: JobQueue, deps: JobDeps): Promise<void> {
  await queue.define(
    GREETING_SWEEP_JOB,
    async () => {
      const out = await sweepGreetingFiles(deps.db, deps.ports.files, deps.now());
      if (out.removedFiles + out.removedRows > 0) deps.log?.info({ greetingSweep: out }, 'greeting audio swept');
    },
    { retryLimit: 3, retryDelaySeconds: 60 },
  );
  await queue.schedule(GREETING_SWEEP_JOB, '23 * * * *');
}
