// The roles of a user, as check boxes: the caller changes only the roles he may give
// (ASSIGNABLE_ROLES of the service, ../roles.ts); the others the user holds stay shown, fixed.
// bp_admin and bp_finance belong to users of a BP company (the service's INVALID_ROLES).
import { Checkbox, Group, Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { useSession } from '../../../auth/roles.ts';
import { assignableRoles } from '../roles.ts';
import { ROLE_NAMES } from './role-names.ts';

interface Props {
  value: string[];
  onChange: (roles: string[]) => void;
  companyIsBP: boolean;
  disabled?: boolean;
}

export function RolesField({ value, onChange, companyIsBP, disabled }: Props) {
  const s = useSession();
  const mine: string[] = assignableRoles(s?.user.roles ?? []);
  const shown = ROLE_NAMES.filter((r) => r !== 'user' && (mine.includes(r) || value.includes(r)));
  return (
    <Checkbox.Group label="Roles" description="Every user also holds “user”." value={value} onChange={onChange}>
      <Group mt="xs">
        {shown.map((r) => (
          <Checkbox
            key={r}
            value={r}
            label={r}
            disabled={disabled || !mine.includes(r) || ((r === 'bp_admin' || r === 'bp_finance') && !companyIsBP)}
          />
        ))}
      </Group>
    </Checkbox.Group>
  );
}

/** The site of a site_admin (document 3: a site_admin needs a site of his company). */
export function SiteSelect({
  companyId,
  value,
  onChange,
  disabled,
}: {
  companyId: string;
  value: string | null;
  onChange: (siteId: string | null) => void;
  disabled?: boolean;
}) {
  const q = useQuery({
    queryKey: ['sites', companyId, 'select'],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/admin/v1.0/companies/{companyId}/sites', {
          params: { path: { companyId }, query: { limit: 100 } },
        }),
      ),
    enabled: Boolean(companyId),
  });
  return (
    <Select
      label="Site administered"
      required
      value={value}
      onChange={onChange}
      data={(q.data?.data ?? []).map((site) => ({ value: site.id ?? '', label: site.name ?? '' }))}
      disabled={disabled}
      error={q.error ? 'The sites of this company could not be read' : undefined}
    />
  );
}
