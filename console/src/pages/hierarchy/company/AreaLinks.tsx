// The company's pages in the other areas of the console (issue 28: commerce, billing, voice and
// imports), reached from the company itself.
import { Anchor, Group } from '@mantine/core';
import { Link } from 'react-router';

export function AreaLinks({ companyId, isBP }: { companyId: string; isBP: boolean }) {
  const links = [
    // A BP's own companies: its IRs (for a VAD) and End Customers, in the companies list.
    ...(isBP ? [{ to: `/companies?bpId=${companyId}`, label: 'Customers of this BP' }] : []),
    { to: `/companies/${companyId}/subscriptions`, label: 'Subscriptions' },
    { to: `/companies/${companyId}/licences`, label: 'Licences' },
    { to: `/companies/${companyId}/invoices`, label: 'Invoices' },
    { to: `/cloudpbxs?companyId=${companyId}`, label: 'Cloud PBXs' },
    { to: `/imports?companyId=${companyId}`, label: 'Bulk import' },
  ];
  return (
    <nav aria-label="The company in other areas">
      <Group gap="md" mb="md">
        {links.map((l) => (
          <Anchor key={l.label} component={Link} to={l.to}>
            {l.label}
          </Anchor>
        ))}
      </Group>
    </nav>
  );
}
