// A CloudPBX's frame (issue 28, point 4): its name as the page's one heading, the sections of the
// CloudPBX as links (those the role may open: recordings only for the company_admin,
// recordings.policy.ts), and the section's page below.
import { Anchor, Breadcrumbs, Button, Group } from '@mantine/core';
import { Link, Outlet, useLocation } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { pbxPath } from './paths.ts';
import { useCanConsultRecordings } from './roles.ts';
import { usePbx } from './usePbx.ts';

const SECTIONS: { sub: string; label: string; recordings?: boolean }[] = [
  { sub: '', label: 'Settings' },
  { sub: 'numbering', label: 'Numbering plan' },
  { sub: 'ddis', label: 'DDIs' },
  { sub: 'subscribers', label: 'Subscribers' },
  { sub: 'devices', label: 'SIP devices' },
  { sub: 'groups', label: 'Groups' },
  { sub: 'greetings', label: 'Greetings' },
  { sub: 'recordings', label: 'Recordings', recordings: true },
  { sub: 'welcome', label: 'Welcome services' },
];

export default function CloudPbxLayout() {
  const { systemId, pbx, query } = usePbx();
  const { pathname } = useLocation();
  const mayConsult = useCanConsultRecordings();
  if (query.error) return <ErrorNotice error={query.error} />;
  if (!pbx) return <Loading label="Loading the CloudPBX" />;
  const base = pbxPath(systemId);
  const current = (sub: string) =>
    sub === '' ? pathname === base || pathname === `${base}/` : pathname.startsWith(`${base}/${sub}`);
  return (
    <>
      <Breadcrumbs mb="xs" aria-label="Breadcrumb">
        <Anchor component={Link} to="/cloudpbxs">
          CloudPBXs
        </Anchor>
        <Anchor component={Link} to={`/cloudpbxs?companyId=${pbx.companyId ?? ''}`}>
          Of its company
        </Anchor>
      </Breadcrumbs>
      <PageHeader title={pbx.name ?? 'CloudPBX'} />
      <nav aria-label="Sections of the CloudPBX">
        <Group gap={6} mb="lg" wrap="wrap">
          {SECTIONS.filter((s) => !s.recordings || mayConsult).map((s) => (
            <Button
              key={s.sub}
              component={Link}
              to={pbxPath(systemId, s.sub)}
              size="xs"
              variant={current(s.sub) ? 'filled' : 'default'}
              aria-current={current(s.sub) ? 'page' : undefined}
            >
              {s.label}
            </Button>
          ))}
        </Group>
      </nav>
      <Outlet />
    </>
  );
}
