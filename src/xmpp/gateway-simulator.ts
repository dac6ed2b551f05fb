// The embedded gateway simulator: without an XMPP server, the iq requests sent to a telephone
// system's gateway (document 1, Gateway notifications) are answered here, for demonstrations, the
// way the embedded external systems stand in for the real ones. GATEWAY_SIMULATOR chooses how it
// answers (ack, refuse, silent) and GATEWAY_SIMULATOR_DELAY_MS how fast; the controls can be
// changed while the service runs (a demonstration switches to refuse, then back).
import { randomUUID } from 'node:crypto';
import xml, { type Element } from '@xmpp/xml';
import parse from '@xmpp/xml/lib/parse.js';
import type { FastifyBaseLogger } from 'fastify';
import type { GatewaySimulatorMode } from '../config.ts';
import { NS_STANZAS, XmppRequestFailed } from './transport.ts';

export interface GatewaySimulator {
  mode: GatewaySimulatorMode;
  delayMs: number;
}

/** Elements whose text is a secret (a phone number's XMPP password): never written to the log. */
const SECRET_ELEMENTS = new Set(['jid_password']);

/** The stanza as the log shows it: a copy with the text of its secret elements masked. */
export function loggable(stanza: Element): string {
  const copy = parse(stanza.toString());
  const mask = (el: Element) => {
    for (const child of el.getChildElements()) {
      if (SECRET_ELEMENTS.has(child.name) && child.getText() !== '') child.children = ['***'];
      else mask(child);
    }
  };
  mask(copy);
  return copy.toString();
}

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** The reply the simulated gateway sends, or undefined when it stays silent. */
function replyOf(mode: GatewaySimulatorMode, to: string, iq: Element): Element | undefined {
  if (mode === 'silent') return undefined;
  if (mode === 'ack') return xml('iq', { type: 'result', from: to, id: iq.attrs.id });
  return xml(
    'iq',
    { type: 'error', from: to, id: iq.attrs.id },
    xml('error', { type: 'cancel' }, xml('not-acceptable', { xmlns: NS_STANZAS })),
  );
}

/**
 * Answers `iq` as the gateway `to` would: resolves with the result, rejects with an
 * XmppRequestFailed on a refusal, or on a timeout when the answer does not come within `timeoutMs`
 * (a late answer is logged and changes nothing, as a real late reply).
 */
export async function simulateGateway(
  sim: GatewaySimulator,
  to: string,
  iq: Element,
  timeoutMs: number,
  log: FastifyBaseLogger | undefined,
): Promise<Element> {
  const { mode, delayMs } = sim;
  // The id a transport gives the iq on sending (the log transport sends nothing, so none yet).
  if (!iq.attrs.id) iq.attrs.id = randomUUID();
  log?.info({ xmpp: { to, simulator: mode, stanza: loggable(iq) } }, 'xmpp (gateway simulator): iq received');
  const reply = replyOf(mode, to, iq);
  if (!reply || delayMs >= timeoutMs) {
    await wait(timeoutMs);
    if (reply)
      void wait(delayMs - timeoutMs).then(() =>
        log?.info({ xmpp: { to, id: iq.attrs.id } }, 'xmpp (gateway simulator): late answer, ignored'),
      );
    throw new XmppRequestFailed('timeout', `no reply from ${to} within ${timeoutMs} ms`);
  }
  await wait(delayMs);
  log?.info({ xmpp: { to, simulator: mode, stanza: reply.toString() } }, 'xmpp (gateway simulator): answered');
  if (reply.attrs.type === 'error')
    throw new XmppRequestFailed('error', `${to} answered with an error`, { condition: 'not-acceptable', reply });
  return reply;
}
