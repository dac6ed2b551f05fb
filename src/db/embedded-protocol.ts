// The messages between the service's thread and the embedded database's (src/db/embedded-worker.ts).

/** What the database's thread opens: a folder (undefined: memory), or a dump to start from. */
export interface EmbeddedOptions {
  dataDir: string | undefined;
  /** A dump to start from (an empty data folder only): the tarball, or the path of its file. */
  fromDump: Blob | string | undefined;
  postgresqlconf: string[];
}

/** `tx`: the open transaction the call belongs to (none: outside any). `open` comes first. */
export type Request = { id: number } & (
  | { op: 'open'; options: EmbeddedOptions }
  | {
      op: 'query';
      text: string;
      params: unknown[] | undefined;
      rowMode: 'array' | 'object' | undefined;
      raw: number[] | undefined;
      tx: number | undefined;
    }
  | { op: 'exec'; text: string; tx: number | undefined }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; channel: string }
  | { op: 'dump' }
  | { op: 'close' }
);

export type Reply = { id: number } & ({ ok: true; value: unknown } | { ok: false; error: Record<string, unknown> });

/** A NOTIFY on a channel the service listens to. */
export interface Notification {
  notify: string;
  payload: string;
}
