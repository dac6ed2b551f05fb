// Without XMPP settings the service still works: stanzas are written to the log instead of being
// sent (what would have been sent, to whom, with which id), and a request is answered at once with
// an empty result, the way the embedded external systems stand in for the real ones.
import xml, { type Element } from '@xmpp/xml';
import type { FastifyBaseLogger } from 'fastify';
import type { XmppTransport } from './transport.ts';

export function createLogTransport(log: FastifyBaseLogger | undefined): XmppTransport {
  return {
    kind: 'log',
    connected: () => true,
    async deliver(stanzas) {
      for (const s of stanzas) log?.info({ xmpp: { to: s.attrs.to, id: s.attrs.id, stanza: s.toString() } }, 'xmpp (log transport): stanza not sent, no XMPP server configured');
    },
    async request(to, iq) {
      log?.info({ xmpp: { to, stanza: iq.toString() } }, 'xmpp (log transport): iq not sent, answered with an empty result');
      return xml('iq', { type: 'result', from: to, id: iq.attrs.id }) as Element;
    },
    async start() {},
    async stop() {},
  };
}
