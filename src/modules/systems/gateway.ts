// The exchange with a system's gateway (document 1, Gateway notifications): an iq to its
// jid_pbxpcg whose acknowledgement the change waits for. An error reply is 502, no reply in time
// 504; either way the caller has changed nothing yet, and a reply coming later changes nothing.
import type { Element } from '@xmpp/xml';
import { fail } from '../../errors/catalogue.ts';
import type { CommandDeps } from '../../http/context.ts';
import { XmppRequestFailed } from '../../xmpp/transport.ts';
import type { XmppAccounts } from '../../xmpp/accounts.ts';

/**
 * The resource the gateway logs in with. An iq to a bare JID is answered by the server on behalf
 * of the account (RFC 6121, 8.5.1), never by a client: requests go to `<jid_pbxpcg>/gateway`.
 */
export const GATEWAY_RESOURCE = 'gateway';

/** What the rules of systems use of XMPP: requests to gateways, the server's accounts, the users' domain. */
export interface SystemsXmpp {
  request: CommandDeps['xmppRequest'];
  accounts: XmppAccounts | undefined;
  userDomain: string;
}

/** The XMPP dependencies of the systems' rules, from a command's. */
export const systemsXmpp = (deps: CommandDeps): SystemsXmpp => ({
  request: deps.xmppRequest,
  accounts: deps.xmppAccounts,
  userDomain: deps.config.xmpp.userDomain,
});

export async function askGateway(request: SystemsXmpp['request'], jidPbxpcg: string, iq: Element): Promise<Element> {
  const to = `${jidPbxpcg}/${GATEWAY_RESOURCE}`;
  try {
    // (An application built without its background has the embedded simulator's answers: src/http/context.ts.)
    return await request(to, iq);
  } catch (err) {
    if (err instanceof XmppRequestFailed)
      fail(err.reason === 'timeout' ? 'GATEWAY_TIMEOUT' : 'GATEWAY_REFUSED', {
        gateway: jidPbxpcg,
        ...(err.condition ? { condition: err.condition } : {}),
      });
    throw err;
  }
}
