// Which redirect_uri authorize accepts for an application (RFC 6749 3.1.2: registered, compared
// as given). An absolute URL registered by an application must be given exactly. A path is what
// the built-in console registers (issue 28, point 1): the console is served by this service at
// /console/, whose public origin is not known in advance (ports differ, a proxy may front it), so
// the path stands for that path on the origin the authorize request itself came to. The browser
// that asks for the code is then sent back to the server it is talking to, never elsewhere.
import type { FastifyRequest } from 'fastify';

const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$/;

/**
 * The origin of the request: its scheme and Host header, or X-Forwarded-Proto and
 * X-Forwarded-Host when TRUST_PROXY is on (Fastify's `req.protocol` and `req.host` honour the
 * application's trustProxy, as `req.ip` does). Undefined when the Host header is not a host.
 */
export function requestOrigin(req: FastifyRequest): string | undefined {
  // A host and an optional port, nothing else (no user info, no path): anything else names no origin.
  if (!HOST.test(req.host) || (req.protocol !== 'http' && req.protocol !== 'https')) return undefined;
  try {
    return new URL(`${req.protocol}://${req.host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * True when `redirectUri` is one of `registered`: an absolute URL equal to it, or, for a registered
 * path, exactly `origin + path` (no other query, fragment, port or spelling: the form a browser's
 * `location.origin + path` gives).
 */
export function redirectUriAllowed(
  redirectUri: string,
  registered: readonly string[],
  origin: string | undefined,
): boolean {
  return registered.some((r) =>
    r.startsWith('/') ? origin !== undefined && redirectUri === origin + r : redirectUri === r,
  );
}
