import type { Config } from './config.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/** Plain HTTP only on loopback, unless a TLS-terminating proxy is declared (docs/operations.md, TLS). */
export function transportProblem(c: Config): string | undefined {
  if (c.tlsCertFile || c.trustProxy || LOOPBACK.test(c.host)) return undefined;
  return `refusing to serve plain HTTP on ${c.host}: set TLS_CERT_FILE and TLS_KEY_FILE, listen on a loopback HOST, or set TRUST_PROXY=true behind a TLS-terminating proxy`;
}
