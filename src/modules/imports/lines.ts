// What the work on one line of an import hands to the parts of the line beyond its user: the PBX
// extension of the device modes (device-lines.ts) and the CloudPBX subscriber, DDI number and SIP
// device of the voice mode (voice-lines.ts). A line is all or nothing (issue 27, point 4): its
// statements run in its own transaction (a savepoint of the batch), and what it did outside the
// database (a registrar account...) is undone by the steps it registered when it fails.
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client.ts';
import type { AppDeps } from '../../http/context.ts';
import type { Role } from '../../authz/roles.ts';
import type { LineError } from './line-errors.ts';

export interface LineWork {
  /** The line's transaction (on a check: the database, only read). */
  tx: Executor;
  /** The application whose operations a line runs for the caller (src/http/run-command.ts). */
  app: AppDeps;
  /** The administrator who asked for the import: every operation runs as his request would. */
  callerId: string;
  companyId: string;
  now: Date;
  log: FastifyBaseLogger;
  /** A check (document 3: dry run): judge the line as the import would, write nothing, call no external system. */
  dryRun: boolean;
  /** Registers an undo step for a side effect outside the database, run (last first) if the line fails. */
  onFailure: (undo: () => Promise<void>) => void;
}

/** The user of the line once its user part is done (on a check, `id` is null for a user the import would create). */
export interface LineUser {
  id: string | null;
  created: boolean;
  roles: readonly Role[];
}

/** A sub-report of document 3's Import report (`_subscriber`, `_sipDevice`, `_ddi`; `_device` for a PBX extension). */
export interface SubReport {
  action: string;
  userId?: string;
  companyId?: string;
  status: 'done' | 'failed';
  origin: Record<string, unknown>;
  error?: LineError;
  [more: string]: unknown;
}
export type SubReports = Partial<Record<'_subscriber' | '_sipDevice' | '_ddi' | '_device', SubReport>>;

/**
 * The failure of a line: its error (the report's `error {code, message}`) and the sub-reports made
 * so far, the failed one included. Thrown by a part of the line; the whole line is then undone.
 */
export class LineFailure extends Error {
  readonly error: LineError;
  readonly reports: SubReports;
  constructor(error: LineError, reports: SubReports = {}) {
    super(error.message);
    this.error = error;
    this.reports = reports;
  }
}

/** What a device-mode line did to the user's PBX extension (document 3: device mode counts attach, force_attach, detach). */
export type DeviceAction = 'attach' | 'force_attach' | 'detach';
