// A company's details (issue 28, point 2): its general information, avatar and banner,
// customisation, join links and invitations, service description, sites and users, each a tab
// shown to the roles whose policy allows reading it (../roles.ts). The tab is in the address, so a
// link or a reload opens the same one.
import { Anchor, Badge, Group, Tabs, Text } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { useRoles } from '../../../auth/roles.ts';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { INVITATION_READ_ROLES, JOIN_LINK_READ_ROLES, SITE_LIST_ROLES, USER_READ_ROLES } from '../roles.ts';
import { AreaLinks } from './AreaLinks.tsx';
import { BrandingTab } from './BrandingTab.tsx';
import { CustomisationTab } from './CustomisationTab.tsx';
import { GeneralTab } from './GeneralTab.tsx';
import { JoinTab } from './JoinTab.tsx';
import { ServiceDescriptionTab } from './ServiceDescriptionTab.tsx';
import { SitesTab } from './SitesTab.tsx';
import { UsersTable } from '../users/UsersTable.tsx';
import { useCompany } from './useCompany.ts';

export default function CompanyPage() {
  const companyId = useParams().companyId ?? '';
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'general';
  const q = useCompany(companyId);
  const seesJoin = useRoles(...JOIN_LINK_READ_ROLES, ...INVITATION_READ_ROLES);
  const seesSites = useRoles(...SITE_LIST_ROLES);
  const seesUsers = useRoles(...USER_READ_ROLES);
  if (q.isPending) return <Loading />;
  if (q.error)
    return (
      <>
        <PageHeader title="Company" />
        <ErrorNotice error={q.error} />
      </>
    );
  const c = q.data.data;
  return (
    <>
      <PageHeader title={c.name ?? 'Company'}>
        <Group gap="xs">
          {c.isBP ? <Badge variant="light">BP {c.bpType ?? ''}</Badge> : <Badge color="gray">End Customer</Badge>}
          {/* Blue light and gray filled: the badge colours that keep a 4.5:1 contrast (axe). */}
          <Badge variant={c.status === 'active' ? 'light' : 'filled'} color={c.status === 'active' ? 'blue' : 'gray'}>
            {c.status}
          </Badge>
        </Group>
      </PageHeader>
      {c.bpId ? (
        <Text size="sm" mb="xs">
          Business partner: <BpName bpId={c.bpId} />
        </Text>
      ) : null}
      <AreaLinks companyId={companyId} isBP={Boolean(c.isBP)} />
      <Tabs value={tab} onChange={(v) => setParams(v && v !== 'general' ? { tab: v } : {}, { replace: true })}>
        <Tabs.List mb="md">
          <Tabs.Tab value="general">General</Tabs.Tab>
          <Tabs.Tab value="branding">Avatar and banner</Tabs.Tab>
          <Tabs.Tab value="customisation">Customisation</Tabs.Tab>
          {seesJoin ? <Tabs.Tab value="join">Join links and invitations</Tabs.Tab> : null}
          <Tabs.Tab value="service-description">Service description</Tabs.Tab>
          {seesSites ? <Tabs.Tab value="sites">Sites</Tabs.Tab> : null}
          {seesUsers ? <Tabs.Tab value="users">Users</Tabs.Tab> : null}
        </Tabs.List>
        <Tabs.Panel value="general">{tab === 'general' ? <GeneralTab company={c} /> : null}</Tabs.Panel>
        <Tabs.Panel value="branding">{tab === 'branding' ? <BrandingTab company={c} /> : null}</Tabs.Panel>
        <Tabs.Panel value="customisation">
          {tab === 'customisation' ? <CustomisationTab companyId={companyId} /> : null}
        </Tabs.Panel>
        {seesJoin ? (
          <Tabs.Panel value="join">
            {tab === 'join' ? <JoinTab companyId={companyId} isBP={Boolean(c.isBP)} /> : null}
          </Tabs.Panel>
        ) : null}
        <Tabs.Panel value="service-description">
          {tab === 'service-description' ? <ServiceDescriptionTab company={c} /> : null}
        </Tabs.Panel>
        {seesSites ? (
          <Tabs.Panel value="sites">{tab === 'sites' ? <SitesTab companyId={companyId} /> : null}</Tabs.Panel>
        ) : null}
        {seesUsers ? (
          <Tabs.Panel value="users">
            {tab === 'users' ? (
              <UsersTable companyId={companyId} caption={`Users of ${c.name ?? 'the company'}`} />
            ) : null}
          </Tabs.Panel>
        ) : null}
      </Tabs>
    </>
  );
}

/** The BP's name, read from the service (a reader of an End Customer also reads its BP). */
function BpName({ bpId }: { bpId: string }) {
  const q = useCompany(bpId);
  return (
    <Anchor component={Link} to={`/companies/${bpId}`}>
      {q.data?.data.name ?? bpId}
    </Anchor>
  );
}
