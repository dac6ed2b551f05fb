// The scheduled retention of recordings (document 2, recording rules: "processed recordings are
// checked at most every hour"; issue 26, point 5): every hour, the same run as
// POST V/recordings/retention-runs, at the service's clock (src/clock.ts).
import type { JobQueue } from '../../jobs/queue.ts';
import type { JobDeps } from '../module.ts';
import { runRetention } from './recordings.service.ts';

export const RECORDING_RETENTION_JOB = 'pbx.recording-retention';

export async function defineRecordingJobs(queue: JobQueue, deps: JobDeps): Promise<void> {
  await queue.define(
    RECORDING_RETENTION_JOB,
    async () => {
      const r = await runRetention({ db: deps.db, files: deps.ports.files, now: deps.now, log: deps.log });
      deps.log?.info(r, 'recordings retention run');
    },
    { retryLimit: 2, retryDelaySeconds: 300, expireInSeconds: 3000 },
  );
  await queue.schedule(RECORDING_RETENTION_JOB, '7 * * * *');
}
