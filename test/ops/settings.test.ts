// Issue 13, point 2: every setting is declared once, checked before anything is opened, and a
// wrong value is reported in one line naming the variable, the problem and the expected form.
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { expect } from '../support/expect.ts';
import { ConfigError, loadConfig, settingsTable } from '../../src/config.ts';

const refusal = (env: Record<string, string>): ConfigError => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
};

describe('issue 13, point 2: configuration validated first', () => {
  it("the README's configuration table is the one generated from the declarations", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = readme.slice(readme.indexOf('<!-- settings:'), readme.indexOf('<!-- /settings -->'));
    expect(block.slice(block.indexOf('\n') + 1).trim()).toBe(settingsTable());
  });

  it('has the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: './data',
      databaseUrl: undefined,
      jwtTtlSeconds: 3600,
      logLevel: 'info',
      trustProxy: false,
      shutdownGraceSeconds: 10,
      metrics: { enabled: true, port: undefined },
      rateLimitMax: 6000,
      rateLimitAnonymousMax: 1200,
      rateLimitWindowSeconds: 60,
    });
  });

  it('each mistake an operator made is named with its variable and the expected form', () => {
    expect(refusal({ LOG_LEVEL: 'verbose' }).message).toBe(
      'LOG_LEVEL="verbose" is not valid: expected one of fatal, error, warn, info, debug, trace, silent',
    );
    expect(refusal({ PORT: '70000' }).message).toBe('PORT="70000" is not valid: expected an integer from 1 to 65535');
    expect(refusal({ PORT: 'eighty' }).variable).toBe('PORT');
    expect(refusal({ TLS_CERT_FILE: '/nonexistent/cert.pem', TLS_KEY_FILE: '/nonexistent/key.pem' }).message).toMatch(
      /^TLS_CERT_FILE="\/nonexistent\/cert.pem" is not a readable file/,
    );
    expect(refusal({ TLS_CERT_FILE: '/etc/hostname' }).message).toMatch(
      /TLS_CERT_FILE and TLS_KEY_FILE must be set together/,
    );
    expect(refusal({ DATABASE_URL: 'not-a-url' }).message).toBe(
      'DATABASE_URL="not-a-url" is not valid: expected a postgres:// or postgresql:// URL',
    );
    expect(refusal({ TRUST_PROXY: 'yes' }).message).toBe('TRUST_PROXY="yes" is not valid: expected true or false');
    expect(refusal({ PORTS_FAILURE_RATE: '2' }).message).toBe(
      'PORTS_FAILURE_RATE="2" is not valid: expected a number from 0 to 1',
    );
    expect(refusal({ PORTS: 'billing=remote' }).variable).toBe('PORTS');
  });

  it('a weak SUPERADMIN_PASSWORD is refused without echoing it', () => {
    const err = refusal({ SUPERADMIN_PASSWORD: 'secret' });
    expect(err.message).toMatch(/^SUPERADMIN_PASSWORD is too weak: expected 8 to 256 characters/);
    expect(err.message).not.toContain('secret"');
  });

  it('numbers are read strictly: no "1.5" taken for 1, no " 8" for 8', () => {
    expect(refusal({ JWT_TTL_SECONDS: '1.5' }).variable).toBe('JWT_TTL_SECONDS');
    expect(refusal({ PORT: ' 8' }).variable).toBe('PORT');
    expect(loadConfig({ PORT: '9000', TRUST_PROXY: 'true', PORTS_FAILURE_RATE: '0.25' })).toMatchObject({
      port: 9000,
      trustProxy: true,
      portsFailureRate: 0.25,
    });
  });
});
