// The service's error body (document 1: errorCode, errorMsg, errorDetails, errorDetailsCode),
// carried to the pages so that a refusal is explained, never silent (issue 28, point 1).
import type { Schemas } from './client.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly body: Partial<Schemas['Error']>;
  constructor(status: number, body: unknown) {
    const b = isErrorBody(body) ? body : {};
    super(b.errorMsg ?? `The service answered ${status}`);
    this.status = status;
    this.body = b;
  }
  get code(): number | undefined {
    return this.body.errorDetailsCode;
  }
}

function isErrorBody(x: unknown): x is Partial<Schemas['Error']> {
  return typeof x === 'object' && x !== null && ('errorMsg' in x || 'errorDetailsCode' in x);
}

/** What a person reads for an error: the 403 says that the role does not allow it. */
export function explain(err: unknown): { title: string; message: string } {
  if (err instanceof ApiError) {
    if (err.status === 403)
      return { title: 'Not allowed for your role', message: `${err.message} (${err.code ?? 403})` };
    if (err.status === 404) return { title: 'Not found', message: err.message };
    return { title: `Refused (${err.code ?? err.status})`, message: err.message };
  }
  return { title: 'Something went wrong', message: err instanceof Error ? err.message : String(err) };
}

/** The data of an openapi-fetch answer, or its error thrown as an ApiError. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) throw new ApiError(response.status, error);
  // 204 answers carry no data.
  return data as T;
}
