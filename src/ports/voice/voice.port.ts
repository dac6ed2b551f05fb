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

export interface VoicePort {
  createTenant(t: { companyId: string; name: string }): Promise<VoiceTenant>;
  deleteTenant(tenantId: string): Promise<void>;
  createSubscriber(s: { tenantId: string; userId: string; shortNumber: string; numberE164?: string }): Promise<VoiceSubscriber>;
  updateSubscriber(id: string, change: { shortNumber?: string; numberE164?: string | null }): Promise<VoiceSubscriber>;
  deleteSubscriber(id: string): Promise<void>;
  listSubscribers(tenantId: string): Promise<VoiceSubscriber[]>;
}
