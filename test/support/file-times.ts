// A reporter for node's test runner (`--test-reporter=./test/support/file-times.ts`): at the end of
// a pass, every test file with the wall time of its process, slowest first, and their sum. `.ci/run`
// writes it beside each pass's log, so that a run that nears its 30 minutes shows which files to
// look at (README, Test). The runner reports a file's process as a `test:complete` event at nesting
// 0 named after the file (as the command line names it), its duration the process's whole life,
// start-up included.

interface Event {
  type: string;
  data: { name?: string; nesting?: number; file?: string; details?: { duration_ms?: number } };
}

export default async function* fileTimes(source: AsyncIterable<Event>): AsyncGenerator<string> {
  const times = new Map<string, number>();
  for await (const { type, data } of source) {
    if (type !== 'test:complete' || data.nesting !== 0 || !data.file) continue;
    // The file's own event is named as the command line gave the file (a path relative to the folder).
    if (!data.name || !data.file.endsWith(data.name.replace(/^\.\//, ''))) continue;
    times.set(data.file.slice(data.file.lastIndexOf('/test/') + 1), data.details?.duration_ms ?? 0);
  }
  const sorted = [...times].sort((a, b) => b[1] - a[1]);
  const sum = sorted.reduce((n, [, ms]) => n + ms, 0);
  yield `${sorted.length} files, ${(sum / 1000).toFixed(0)} s of file processes in all\n`;
  for (const [file, ms] of sorted) yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`;
}
