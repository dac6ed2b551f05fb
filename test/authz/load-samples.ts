// The sample requests of test/authz/samples/*.ts, one per operation, for the generated tests that
// build requests from them (the authorisation matrix, the tenant isolation test). Every file there
// but types.ts is imported and every export whose name ends in `Samples` merged; a file exporting
// none, or an operationId declared twice, is refused.
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Sample } from './samples/types.ts';

const SAMPLES_DIR = fileURLToPath(new URL('./samples/', import.meta.url));

export interface LoadedSamples {
  samples: Record<string, Sample>;
  /** The file (and export) each sample comes from. */
  files: Record<string, string>;
}

export async function loadSamples(): Promise<LoadedSamples> {
  const samples: Record<string, Sample> = {};
  const files: Record<string, string> = {};
  for (const file of readdirSync(SAMPLES_DIR)
    .filter((f) => /\.[cm]?[tj]s$/.test(f) && !f.endsWith('.d.ts') && !/^types\.[cm]?[tj]s$/.test(f))
    .sort()) {
    const mod = (await import(pathToFileURL(`${SAMPLES_DIR}${file}`).href)) as Record<string, unknown>;
    const exported = Object.entries(mod).filter(([name]) => name.endsWith('Samples'));
    if (exported.length === 0) throw new Error(`test/authz/samples/${file} exports nothing named *Samples`);
    for (const [name, value] of exported) {
      if (typeof value !== 'object' || value === null)
        throw new Error(`test/authz/samples/${file}: ${name} is not a record of samples`);
      for (const [operationId, sample] of Object.entries(value as Record<string, Sample>)) {
        if (samples[operationId])
          throw new Error(
            `the sample of ${operationId} is declared twice: in ${files[operationId]} and in ${file} (${name})`,
          );
        samples[operationId] = sample;
        files[operationId] = `${file} (${name})`;
      }
    }
  }
  return { samples, files };
}
