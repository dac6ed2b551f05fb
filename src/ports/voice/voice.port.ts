// The voice platform of the hosted PBX (document 2): a tenant per company (its vcp... identifiers)
// and the subscribers (a user with a short number) under it.

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
}
