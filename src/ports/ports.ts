// The external systems behind their ports, chosen by configuration (PORTS). Each has an embedded
// implementation that keeps real state in the service's database or data folder, and a control
// object (delay, failures, hold) whose starting values come from PORTS_DELAY_MS and
// PORTS_FAILURE_RATE. A real implementation is added as another name in IMPLEMENTATIONS (and in
// src/config.ts, OTHER_IMPLEMENTATIONS): today voice=kamailio, the SIP registrar of the devices.
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { controlled, createControl, type PortControl } from './control.ts';
import type { OrdersPort } from './orders/orders.port.ts';
import type { BillingPort } from './billing/billing.port.ts';
import type { ProvidersPort } from './providers/providers.port.ts';
import type { VoicePort } from './voice/voice.port.ts';
import type { FilesPort } from './files/files.port.ts';
import { embeddedOrders } from './orders/orders.embedded.ts';
import { embeddedBilling } from './billing/billing.embedded.ts';
import { embeddedProviders } from './providers/providers.embedded.ts';
import { embeddedVoice } from './voice/voice.embedded.ts';
import { kamailioVoice } from './voice/voice.kamailio.ts';
import { dataFolderFiles } from './files/files.data-folder.ts';

export interface Ports {
  orders: OrdersPort;
  billing: BillingPort;
  providers: ProvidersPort;
  voice: VoicePort;
  files: FilesPort;
  /** Delay and failure injection, per port. */
  controls: Record<keyof Omit<Ports, 'controls'>, PortControl>;
}

type Deps = { database: Database; config: Config; now: () => Date };

const IMPLEMENTATIONS: { [K in keyof Omit<Ports, 'controls'>]: Record<string, (d: Deps) => Ports[K]> } = {
  orders: {
    embedded: (d) => embeddedOrders(d.database.db, d.now, d.config.ordersApplicantNumbers, d.database),
  },
  billing: { embedded: (d) => embeddedBilling(d.database.db, d.now) },
  providers: { embedded: (d) => embeddedProviders(d.database.db, d.now) },
  voice: {
    embedded: (d) => embeddedVoice(d.database.db, d.config.sip.domain),
    // The SIP registrar of the devices is Kamailio (issue 25, point 8); loadConfig requires both settings.
    kamailio: (d) => {
      const { kamailioDatabaseUrl, kamailioCtl, domain } = d.config.sip;
      if (!kamailioDatabaseUrl || !kamailioCtl)
        throw new Error('PORTS=voice=kamailio needs KAMAILIO_DATABASE_URL and KAMAILIO_CTL');
      return kamailioVoice(d.database.db, { databaseUrl: kamailioDatabaseUrl, ctl: kamailioCtl, sipDomain: domain });
    },
  },
  // `embedded` is the data folder: DATA_DIR/files.
  files: { embedded: (d) => dataFolderFiles(join(d.config.dataDir, 'files')) },
};

export function createPorts(d: Deps): Ports {
  const initial = { delayMs: d.config.portsDelayMs, failureRate: d.config.portsFailureRate };
  const build = <K extends keyof typeof IMPLEMENTATIONS>(name: K) => {
    const impl = d.config.ports[name] ?? 'embedded';
    const make = IMPLEMENTATIONS[name][impl];
    if (!make)
      throw new Error(
        `PORTS: no implementation "${impl}" for ${name} (known: ${Object.keys(IMPLEMENTATIONS[name]).join(', ')})`,
      );
    const control = createControl(name, initial);
    return { port: controlled<Ports[K]>(make(d), control), control };
  };
  const orders = build('orders');
  const billing = build('billing');
  const providers = build('providers');
  const voice = build('voice');
  const files = build('files');
  return {
    orders: orders.port,
    billing: billing.port,
    providers: providers.port,
    voice: voice.port,
    files: files.port,
    controls: {
      orders: orders.control,
      billing: billing.control,
      providers: providers.control,
      voice: voice.control,
      files: files.control,
    },
  };
}

const standalone = new WeakMap<object, Ports>();

/**
 * The ports of the instance's background, or, for an application built without one (tests,
 * tools), ports of the same configuration made once for it: a request that must ask an external
 * system (an applicant number) works either way; only jobs and events need the background.
 */
export function portsOf(deps: Deps & { background?: { ports: Ports } }): Ports {
  if (deps.background) return deps.background.ports;
  let p = standalone.get(deps);
  if (!p) standalone.set(deps, (p = createPorts(deps)));
  return p;
}
