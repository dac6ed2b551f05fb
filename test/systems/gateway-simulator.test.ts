// Issue 12, point 4: the embedded gateway simulator, configured by GATEWAY_SIMULATOR and
// GATEWAY_SIMULATOR_DELAY_MS (README, Configuration; docs/decisions.md, "Telephone systems").
import { describe, it } from 'node:test';
import xml from '@xmpp/xml';
import { expect } from '../support/expect.ts';
import { loadConfig } from '../../src/config.ts';
import { loggable, simulateGateway } from '../../src/xmpp/gateway-simulator.ts';
import { XmppRequestFailed } from '../../src/xmpp/transport.ts';

const iq = () =>
  xml(
    'iq',
    { type: 'set' },
    xml(
      'config',
      { xmlns: 'urn:xmpp:pbxagent:config:1' },
      xml('user', { action: 'update' }, xml('shortNumber', {}, '1'), xml('jid_password', {}, 'secret-value')),
    ),
  );

describe('issue 12, point 4: the embedded gateway simulator', () => {
  it('issue 12, point 4: GATEWAY_SIMULATOR is ack (default), refuse or silent; anything else stops the start', () => {
    expect(loadConfig({}).xmpp).toMatchObject({ gatewaySimulator: 'ack', gatewaySimulatorDelayMs: 0 });
    expect(loadConfig({ GATEWAY_SIMULATOR: 'silent', GATEWAY_SIMULATOR_DELAY_MS: '250' }).xmpp).toMatchObject({
      gatewaySimulator: 'silent',
      gatewaySimulatorDelayMs: 250,
    });
    expect(() => loadConfig({ GATEWAY_SIMULATOR: 'maybe' })).toThrow(/GATEWAY_SIMULATOR/);
  });

  it("issue 12, point 4: ack answers the iq's id with a result; refuse with an error reply; silent and late answers are a timeout", async () => {
    const reply = await simulateGateway({ mode: 'ack', delayMs: 0 }, 'gw@localhost/gateway', iq(), 200, undefined);
    expect(reply.attrs).toMatchObject({ type: 'result', from: 'gw@localhost/gateway' });
    expect(reply.attrs.id).toEqual(expect.any(String));
    const refused = await simulateGateway(
      { mode: 'refuse', delayMs: 0 },
      'gw@localhost/gateway',
      iq(),
      200,
      undefined,
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(XmppRequestFailed);
    expect(refused).toMatchObject({ reason: 'error', condition: 'not-acceptable' });
    for (const sim of [
      { mode: 'silent', delayMs: 0 },
      { mode: 'ack', delayMs: 400 },
    ] as const) {
      const started = Date.now();
      const failed = await simulateGateway(sim, 'gw@localhost/gateway', iq(), 200, undefined).catch((e: unknown) => e);
      expect(failed).toMatchObject({ reason: 'timeout' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    }
  });

  it('issue 12, point 1: the logged iq has its secrets masked, the sent one keeps them', () => {
    const el = iq();
    expect(loggable(el)).toContain('<jid_password>***</jid_password>');
    expect(loggable(el)).not.toContain('secret-value');
    expect(el.toString()).toContain('<jid_password>secret-value</jid_password>');
  });
});
