// Without XMPP settings the service still works: stanzas are written to the log instead of being
// sent (what would have been sent, to whom, with which id), and a request is answered by the
// embedded gateway simulator (gateway-simulator.ts), the way the embedded external systems stand
// in for the real ones.
import type { FastifyBaseLogger } from 'fastify';
import type { XmppTransport } from './transport.ts';
import { simulateGateway, type GatewaySimulator } from './gateway-simulator.ts';

export function createLogTransport(
  log: FastifyBaseLogger | undefined,
  simulator: GatewaySimulator = { mode: 'ack', delayMs: 0 },
  requestTimeoutMs = 10_000,
): XmppTransport {
  return {
    kind: 'log',
    connected: () => true,
    async deliver(stanzas) {
      for (const s of stanzas)
        log?.info(
          { xmpp: { to: s.attrs.to, id: s.attrs.id, stanza: s.toString() } },
          'xmpp (log transport): stanza not sent, no XMPP server configured',
        );
    },
    request: (to, iq, opts) => simulateGateway(simulator, to, iq, opts?.timeoutMs ?? requestTimeoutMs, log),
    // No server: nobody logs in, so no presence ever comes.
    onPresence() {},
    onOnline() {},
    async start() {},
    async stop() {},
  };
}
