// What the service needs from XMPP: deliver stanzas (acknowledged by the server) and send an iq
// request whose reply it awaits. Two implementations: the XEP-0114 component (component.ts) and,
// without XMPP settings, the log transport (log-transport.ts).
import type { Element } from '@xmpp/xml';

export interface XmppTransport {
  readonly kind: 'component' | 'log';
  /** True when stanzas can be sent now (the component's stream is open). */
  connected(): boolean;
  /**
   * Sends the stanzas in order, with their to/id set, and resolves once the server has
   * acknowledged having read them; rejects when that cannot be known (then they may be resent).
   */
  deliver(stanzas: Element[]): Promise<void>;
  /**
   * Sends an iq (type get or set, with its payload) to `to` and resolves with the reply of type
   * result. An error reply or no reply in time rejects with an XmppRequestFailed.
   */
  request(to: string, iq: Element, opts?: { timeoutMs?: number }): Promise<Element>;
  /**
   * Calls `listener` with each presence (available or unavailable) an XMPP entity sends the
   * service, one at a time in the order received. Only the instance connected to the server
   * receives them; the log transport, with no server, none.
   */
  onPresence(listener: PresenceListener): void;
  /** Calls `listener` each time this instance's connection to the server opens (never without a server). */
  onOnline(listener: () => Promise<void>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A presence received: who sent it (its full JID) and whether it is available. */
export interface XmppPresence {
  from: string;
  available: boolean;
}

export type PresenceListener = (presence: XmppPresence) => Promise<void>;

/** The typed failure of a request: the gateway answered with an error, or not in time. */
export class XmppRequestFailed extends Error {
  readonly reason: 'error' | 'timeout';
  /** The defined condition of an error reply (item-not-found, service-unavailable...). */
  readonly condition: string | undefined;
  /** The error reply itself, when there is one. */
  readonly reply: Element | undefined;
  constructor(reason: 'error' | 'timeout', message: string, opts: { condition?: string; reply?: Element } = {}) {
    super(message);
    this.name = 'XmppRequestFailed';
    this.reason = reason;
    this.condition = opts.condition;
    this.reply = opts.reply;
  }
}

export const NS_STANZAS = 'urn:ietf:params:xml:ns:xmpp-stanzas';

/** The condition element's name of an iq error reply. */
export function errorCondition(reply: Element): string | undefined {
  const error = reply.getChild('error');
  return error?.getChildElements().find((c) => c.attrs.xmlns === NS_STANZAS && c.name !== 'text')?.name;
}
