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

export interface ProvidersPort {
  provision(p: { providerType: ProviderType; companyId: string; subscriptionId: string; mediaType?: string; bridgeEnterpriseId?: string }): Promise<Provisioning>;
  deprovision(id: string): Promise<Provisioning>;
  get(id: string): Promise<Provisioning | undefined>;
  /** What the provider holds for a subscription. */
  ofSubscription(subscriptionId: string): Promise<Provisioning[]>;
}
