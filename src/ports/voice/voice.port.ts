// The voice platform of the hosted PBX (document 2): a tenant per company (its vcp... identifiers)
// and the subscribers (a user with a short number) under it; and the SIP registrar of its devices
// (issue 25, point 8): a device's account (user name and password, of which only the HA1 is kept),
// the phone's registrations (bindings) and the reboot request sent to them.

export interface VoiceTenant {
  id: string;
  companyId: string;
  name: string;
}

export interface VoiceSubscriber {
  id: string;
  tenantId: string;
  userId: string;
  shortNumber: string;
  numberE164: string | null;
}

/**
 * A usage record of the voice platform (a call of a company's user): the CDR files of the
 * invoicing module list them (docs/billing.md, Files).
 */
export interface CallRecord {
  id: string;
  companyId: string;
  userId: string | null;
  direction: 'inbound' | 'outbound';
  callingNumber: string;
  calledNumber: string;
  /** ISO 8601 UTC. */
  startTime: string;
  durationSeconds: number;
}

/** A device's SIP account on the registrar: `username@domain`, the domain being its realm. */
export interface DeviceAccount {
  deviceId: string;
  tenantId: string;
  username: string;
  domain: string;
  /** A disabled account is refused by the registrar; enabled again, it has the same password. */
  enabled: boolean;
}

/**
 * A registration (binding) of a device's account: where the registrar reaches the phone. The
 * field names are those of the hosted PBX's API (issue 25).
 */
export interface DeviceRegistration {
  /** The registrar's identifier of the binding. */
  id: string;
  /** The Contact URI the phone registered. */
  fullSipURI: string;
  /** When the binding expires: 'YYYY-MM-DD HH:MM:SS', UTC. */
  expirationDate: string;
  user_agent: string;
  deviceId: string;
  /** host:port the REGISTER came from (the public address behind a NAT), or the Contact's host:port when unknown. */
  publicSourceRegistration: string;
}

export interface VoicePort {
  createTenant(t: { companyId: string; name: string }): Promise<VoiceTenant>;
  deleteTenant(tenantId: string): Promise<void>;
  createSubscriber(s: {
    tenantId: string;
    userId: string;
    shortNumber: string;
    numberE164?: string;
  }): Promise<VoiceSubscriber>;
  updateSubscriber(id: string, change: { shortNumber?: string; numberE164?: string | null }): Promise<VoiceSubscriber>;
  deleteSubscriber(id: string): Promise<void>;
  listSubscribers(tenantId: string): Promise<VoiceSubscriber[]>;
  /** Records a call (the platform does it as calls end). */
  recordCall(r: Omit<CallRecord, 'id'>): Promise<CallRecord>;
  /** Calls that started in [from, to) (ISO 8601 UTC), in start order. */
  callRecords(from: string, to: string): Promise<CallRecord[]>;
  /** The SIP domain (and digest realm) of the device accounts. */
  readonly sipDomain: string;
  /**
   * Makes a device's SIP account: the registrar keeps the HA1 (md5 of `username:realm:password`),
   * never the password. Fails when the tenant does not exist, or the device or the user name
   * already has an account.
   */
  createDeviceAccount(a: {
    tenantId: string;
    deviceId: string;
    username: string;
    password: string;
  }): Promise<DeviceAccount>;
  /** The device's account, undefined when it has none. */
  getDeviceAccount(deviceId: string): Promise<DeviceAccount | undefined>;
  /** A new password for the device's account (its HA1 replaced); existing bindings stay until they expire or re-register. */
  changeDeviceAccountPassword(deviceId: string, password: string): Promise<void>;
  /**
   * Disables the device's account (the registrar refuses its REGISTER, and its bindings are
   * removed) or enables it again with the same password. Setting the state it has changes nothing.
   */
  setDeviceAccountEnabled(deviceId: string, enabled: boolean): Promise<void>;
  /** Removes the device's account and its bindings: the phone's next REGISTER is refused. */
  deleteDeviceAccount(deviceId: string): Promise<void>;
  /** The device's current (unexpired) registrations, oldest first. */
  listRegistrations(deviceId: string): Promise<DeviceRegistration[]>;
  /**
   * Asks each registered contact of the device to reboot: a SIP NOTIFY with
   * `Event: check-sync;reboot=true`. Answers how many contacts accepted it (a 2xx answer).
   */
  rebootDevice(deviceId: string): Promise<number>;
}
