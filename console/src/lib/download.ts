// Files the API answers (PDFs, CSV reports, templates, audio) need the bearer token, which a plain
// link cannot send: fetch them, then hand the browser an object URL.
import { session } from '../auth/session.ts';
import { ApiError } from '../api/errors.ts';

export async function fetchFile(url: string, accept?: string): Promise<Blob> {
  const headers: Record<string, string> = {};
  const token = session.token();
  if (token) headers.authorization = `Bearer ${token}`;
  if (accept) headers.accept = accept;
  const res = await fetch(url, { headers, credentials: 'omit' });
  if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
  return res.blob();
}

/** Saves what `url` answers under `filename`. */
export async function download(url: string, filename: string, accept?: string): Promise<void> {
  saveBlob(await fetchFile(url, accept), filename);
}

/** Hands `blob` to the browser as a file named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
