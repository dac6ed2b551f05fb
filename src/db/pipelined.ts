// The hot path's statements on a PostgreSQL server (`Database.prepared`: the authorising statement
// of every request, list pages): a few connections that pipeline. While a statement runs, the next
// ones are already written behind it on the same connection, so one write carries several
// statements and one read brings several answers back. node-postgres's pool sends one statement
// per connection and waits for its answer: two system calls and a wake-up of the other process
// for each statement, on both sides. Measured on getUser (2 cores, 20 connections from outside):
// the service's CPU per answer 178 -> 109 µs, the server's 103 -> 60 µs (docs/decisions.md,
// Performance, "Pipelined hot statements").
//
// The driver is postgres.js: it pipelines by itself (an idle connection first, then behind a busy
// one), prepares each statement once per connection under a name of its own, and reads the types
// as node-postgres does for what these statements answer (json, text, booleans, integers, int8 and
// numeric as text, timestamps as Dates, arrays). The other statements keep node-postgres's pool
// (Drizzle, transactions): nothing else changes driver.
import postgres from 'postgres';

export interface PipelinedOptions {
  url: string;
  /** Connections; statements pipeline behind each other on them once all are busy. */
  connections: number;
  connectTimeoutSeconds: number;
  /** Milliseconds; 0: no limit. */
  statementTimeoutMs: number;
  /** plan_cache_mode of the sessions. */
  plan: 'force_generic_plan' | 'force_custom_plan';
}

export interface Pipelined {
  run<T>(text: string, params: unknown[]): Promise<T[]>;
  /** Statements sent and not yet answered, and the connections' bound. */
  stats(): { connections: number; inFlight: number };
  end(): Promise<void>;
}

export function pipelined(opts: PipelinedOptions): Pipelined {
  const connection: Record<string, string> = { plan_cache_mode: opts.plan };
  if (opts.statementTimeoutMs > 0) connection.statement_timeout = String(opts.statementTimeoutMs);
  const sql = postgres(opts.url, {
    max: opts.connections,
    ...(opts.connectTimeoutSeconds > 0 ? { connect_timeout: opts.connectTimeoutSeconds } : {}),
    connection,
    // Notices are the server's remarks, not errors; the service logs none of them on its other pool either.
    onnotice: () => undefined,
  });
  let inFlight = 0;
  return {
    async run<T>(text: string, params: unknown[]): Promise<T[]> {
      inFlight++;
      try {
        // `prepare`: a named statement per connection, as node-postgres's pool had them.
        return (await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true })) as T[];
      } finally {
        inFlight--;
      }
    },
    stats: () => ({ connections: opts.connections, inFlight }),
    end: () => sql.end({ timeout: 5 }),
  };
}
