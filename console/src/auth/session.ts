// The signed-in session of this tab (issue 28, point 1): the token, how it was obtained, when it
// expires, and the user it belongs to. Kept in sessionStorage, so a reload keeps the session and
// closing the tab ends it. Renewal happens before expiry: a minute before, or at four fifths of a
// short lifetime (GET renew for a password sign-in, the refresh_token grant for OAuth).
import type { Schemas } from '../api/client.ts';

export type SignInMethod = 'password' | 'oauth';
/** What the console keeps of the signed-in user: enough for menus and the header. */
export interface User {
  id: string;
  loginEmail: string;
  firstName?: string;
  lastName?: string;
  companyId: string;
  roles: string[];
}

/** The user's fields the console keeps, from login's loggedInUser or getUser's answer. */
export function sessionUser(u: Partial<Schemas['User']>): User {
  return {
    id: u.id ?? '',
    loginEmail: u.loginEmail ?? '',
    firstName: u.firstName,
    lastName: u.lastName,
    companyId: u.companyId ?? '',
    roles: u.roles ?? [],
  };
}

export interface SessionState {
  token: string;
  method: SignInMethod;
  /** OAuth only: single use, replaced at each renewal. */
  refreshToken?: string;
  /** Milliseconds since the epoch, read from the token's `exp`. */
  expiresAt: number;
  issuedAt: number;
  user: User;
}

const KEY = 'svc-console-session';
type Listener = () => void;

/** The `exp` and `iat` claims of a JWT (read, not verified: the service verifies it). */
export function tokenTimes(token: string): { expiresAt: number; issuedAt: number; userId: string } {
  const part = token.split('.')[1] ?? '';
  const json: unknown = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/')));
  const claims = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  const num = (v: unknown) => (typeof v === 'number' ? v * 1000 : Date.now());
  return {
    expiresAt: num(claims.exp),
    issuedAt: num(claims.iat),
    userId: typeof claims.sub === 'string' ? claims.sub : '',
  };
}

function load(): SessionState | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as SessionState) : null;
  } catch {
    return null;
  }
}

class Session {
  private state: SessionState | null = load();
  private listeners = new Set<Listener>();
  /** Why the last session ended, shown on the sign-in page. */
  notice: string | null = null;

  current(): SessionState | null {
    return this.state;
  }
  token(): string | null {
    return this.state?.token ?? null;
  }
  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  private set(next: SessionState | null) {
    this.state = next;
    if (next) sessionStorage.setItem(KEY, JSON.stringify(next));
    else sessionStorage.removeItem(KEY);
    for (const l of this.listeners) l();
  }
  start(next: SessionState) {
    this.notice = null;
    this.set(next);
  }
  update(patch: Partial<SessionState>) {
    if (this.state) this.set({ ...this.state, ...patch });
  }
  end(notice: string | null) {
    if (!this.state) return;
    this.notice = notice;
    this.set(null);
  }
  endedElsewhere() {
    this.end('Your session has ended (signed out elsewhere, password changed or account removed). Sign in again.');
  }
  /** When to renew: a minute before expiry, or at four fifths of a lifetime shorter than five minutes. */
  renewAt(): number | null {
    if (!this.state) return null;
    const { issuedAt, expiresAt } = this.state;
    const life = expiresAt - issuedAt;
    return life > 300_000 ? expiresAt - 60_000 : issuedAt + life * 0.8;
  }
}

export const session = new Session();
