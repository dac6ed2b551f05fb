// The media and conference providers: offers may need provisioning on them (document 1,
// Provisioning entry: a media server kind with mediaType, a conference bridge kind with
// bridgeEnterpriseId; provisioningOngoing while the provider works).

export type ProviderType = 'media' | 'conference';

export interface Provisioning {
  id: string;
  providerType: ProviderType;
  companyId: string;
  subscriptionId: string;
  mediaType: string | null;
  bridgeEnterpriseId: string | null;
  status: 'ready' | 'removed';
  startDate: string;
}

/** A usage record of the conference bridge: one conference of a company (docs/billing.md, Files). */
export interface ConferenceRecord {
  id: string;
  companyId: string;
  conferenceId: string;
  participants: number;
  /** ISO 8601 UTC. */
  startTime: string;
  durationSeconds: number;
}

export interface ProvidersPort {
  provision(p: {
    providerType: ProviderType;
    companyId: string;
    subscriptionId: string;
    mediaType?: string;
    bridgeEnterpriseId?: string;
  }): Promise<Provisioning>;
  deprovision(id: string): Promise<Provisioning>;
  get(id: string): Promise<Provisioning | undefined>;
  /** What the provider holds for a subscription. */
  ofSubscription(subscriptionId: string): Promise<Provisioning[]>;
  /** Records a conference (the bridge does it as conferences end). */
  recordConference(r: Omit<ConferenceRecord, 'id'>): Promise<ConferenceRecord>;
  /** Conferences that started in [from, to) (ISO 8601 UTC), in start order. */
  conferenceRecords(from: string, to: string): Promise<ConferenceRecord[]>;
}
