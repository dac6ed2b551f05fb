// The file store: invoice files (the invoicing module's CSV and PDF), import reports, any large
// object the service keeps outside its tables. Keys are paths of '/'-separated segments.

export interface StoredFile {
  key: string;
  contentType: string;
  size: number;
  bytes: Buffer;
}

export interface FilesPort {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<StoredFile | undefined>;
  delete(key: string): Promise<boolean>;
  /** Keys under a prefix, sorted. */
  list(prefix: string): Promise<string[]>;
}

/** Keys are relative paths of plain segments: no '..', no empty or absolute segment. */
export function validKey(key: string): boolean {
  return (
    key.length > 0 &&
    key.length <= 1024 &&
    key.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && !/[\0\\]/.test(s))
  );
}
