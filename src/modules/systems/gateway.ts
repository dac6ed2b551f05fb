// The exchange with a system's gateway (document 1, Gateway notifications): an iq to its
// jid_pbxpcg whose acknowledgement the change waits for. An error reply is 502, no reply in time
// 504; either way the caller has changed nothing yet, and a reply coming later changes nothing.
import type { Element } from '@xmpp/xml';
import { fail } from '../../errors/catalogue.ts';
import type { AppDeps } from '../../http/context.ts';
import { XmppRequestFailed } from '../../xmpp/transport.ts';
import { simulateGateway } from '../../xmpp/gateway-simulator.ts';

/**
 * The resource the gateway logs in with. An iq to a bare JID is answered by the server on behalf
 * of the account (RFC 6121, 8.5.1), never by a client: requests go to `<jid_pbxpcg>/gateway`.
 */
export const GATEWAY_RESOURCE = 'gateway';

export async function askGateway(deps: AppDeps, jidPbxpcg: string, iq: Element): Promise<Element> {
  const x = deps.config.xmpp;
  const to = `${jidPbxpcg}/${GATEWAY_RESOURCE}`;
  try {
    // An application built without its background (no transport at all) has the simulator's answers.
    return deps.background
      ? await deps.background.xmpp.request(to, iq)
      : await simulateGateway(
          { mode: x.gatewaySimulator, delayMs: x.gatewaySimulatorDelayMs },
          to,
          iq,
          x.requestTimeoutMs,
          undefined,
        );
  } catch (err) {
    if (err instanceof XmppRequestFailed)
      fail(err.reason === 'timeout' ? 'GATEWAY_TIMEOUT' : 'GATEWAY_REFUSED', {
        gateway: jidPbxpcg,
        ...(err.condition ? { condition: err.condition } : {}),
      });
    throw err;
  }
}
