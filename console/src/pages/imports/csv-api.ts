// The check and import calls of the bulk import (route table, Bulk import: "CSV bodies are sent raw
// with Content-Type: text/csv; charset=utf-8; query companyId, delimiter, comment, label,
// commandId"). openapi-fetch would serialise the body as JSON: the CSV text goes as it is.
import { api, type Schemas } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import type { ImportKind } from './kinds.ts';

const CSV_BODY = {
  bodySerializer: (b: string) => b,
  headers: { 'content-type': 'text/csv; charset=utf-8' },
};

export interface CsvRequest {
  kind: ImportKind;
  companyId: string;
  csv: string;
  sync: boolean;
  label?: string;
}

/** The dry run (checkCsv, checkCsvForSync, checkVoiceCsv): nothing is written. */
export async function checkCsv(r: CsvRequest): Promise<Schemas['CheckReport']> {
  const params = { query: { companyId: r.companyId } };
  const call =
    r.kind === 'voice'
      ? api.POST('/api/svc/massprovisioning/v1.0/users/imports/voice/check', { params, body: r.csv, ...CSV_BODY })
      : r.sync
        ? api.POST('/api/svc/massprovisioning/v1.0/users/imports/synchronize/check', {
            params,
            body: r.csv,
            ...CSV_BODY,
          })
        : api.POST('/api/svc/massprovisioning/v1.0/users/imports/check', { params, body: r.csv, ...CSV_BODY });
  return (await unwrap(call)).data;
}

/** Starts the import (importCsv, syncCsv, importVoiceCsv): 202 at once, the work runs as a job (rule 2). */
export async function startImport(r: CsvRequest): Promise<Schemas['ImportStarted']> {
  const params = { query: { companyId: r.companyId, ...(r.label ? { label: r.label } : {}) } };
  const call =
    r.kind === 'voice'
      ? api.POST('/api/svc/massprovisioning/v1.0/users/imports/voice', { params, body: r.csv, ...CSV_BODY })
      : r.sync
        ? api.POST('/api/svc/massprovisioning/v1.0/users/imports/synchronize', { params, body: r.csv, ...CSV_BODY })
        : api.POST('/api/svc/massprovisioning/v1.0/users/imports', { params, body: r.csv, ...CSV_BODY });
  return (await unwrap(call)).data;
}

/** The template of a kind's mode, downloaded with the bearer token. */
export const templateUrl = (companyId: string, mode: string) =>
  `/api/svc/massprovisioning/v1.0/users/template?${new URLSearchParams({ companyId, mode, comment: 'true' })}`;
