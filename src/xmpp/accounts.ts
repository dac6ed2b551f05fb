// The XMPP accounts the service owns on the XMPP server (a telephone system's jid_pbxagent and
// jid_pbxpcg, document 3), so that its agent and gateway can log in with them. XMPP_ACCOUNTS
// chooses how: `none` (default) keeps them as the service's records only (no server, or one
// provisioned otherwise); `prosodyctl` creates, changes and deletes them with Prosody's own command
// line (`prosodyctl adduser / passwd / deluser`, Prosody's documented account management), on the
// host that runs Prosody, with PROSODYCTL_CONFIG as its configuration. The password goes through
// the command's standard input, never its arguments (which other local users can read) nor a log.
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';

export interface XmppAccounts {
  readonly kind: 'none' | 'prosodyctl';
  create(jid: string, password: string): Promise<void>;
  setPassword(jid: string, password: string): Promise<void>;
  /** Deleting an account that does not exist is no error. */
  delete(jid: string): Promise<void>;
}

/** An account operation the XMPP server refused or that could not run. */
export class XmppAccountFailed extends Error {
  constructor(operation: string, jid: string, detail: string) {
    super(`xmpp account ${operation} of ${jid} failed: ${detail}`);
    this.name = 'XmppAccountFailed';
  }
}

export const noXmppAccounts: XmppAccounts = {
  kind: 'none',
  async create() {},
  async setPassword() {},
  async delete() {},
};

const TIMEOUT_MS = 15_000;

export function prosodyctlAccounts(configFile: string | undefined): XmppAccounts {
  const run = (operation: string, jid: string, password?: string) =>
    new Promise<{ code: number; out: string }>((resolve, reject) => {
      const args = [...(configFile ? ['--config', configFile] : []), operation, jid];
      const child = spawn('prosodyctl', args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: TIMEOUT_MS });
      let out = '';
      child.stdout.on('data', (d) => (out += String(d)));
      child.stderr.on('data', (d) => (out += String(d)));
      child.on('error', (err) => reject(new XmppAccountFailed(operation, jid, err.message)));
      child.on('close', (code) => resolve({ code: code ?? 1, out: stripVTControlCharacters(out).trim() }));
      // A prosodyctl that ends before reading its input (a refusal) closes the pipe: the write then
      // fails with EPIPE, which says nothing its exit code does not, and unheard would end the process.
      child.stdin.on('error', () => undefined);
      // prosodyctl asks for the password twice.
      child.stdin.end(password === undefined ? '' : `${password}\n${password}\n`);
    });
  const must = async (operation: string, jid: string, password?: string) => {
    const { code, out } = await run(operation, jid, password);
    if (code !== 0) throw new XmppAccountFailed(operation, jid, out.split('\n').pop() ?? `exit ${code}`);
  };
  return {
    kind: 'prosodyctl',
    create: (jid, password) => must('adduser', jid, password),
    setPassword: (jid, password) => must('passwd', jid, password),
    async delete(jid) {
      const { code, out } = await run('deluser', jid);
      if (code !== 0 && !/does not exist/.test(out))
        throw new XmppAccountFailed('deluser', jid, out.split('\n').pop() ?? `exit ${code}`);
    },
  };
}
