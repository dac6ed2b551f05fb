// Avatar and banner of a company (issue 28, point 2: upload with preview).
import { SimpleGrid } from '@mantine/core';
import type { Schemas } from '../../../api/client.ts';
import { useRoles } from '../../../auth/roles.ts';
import { COMPANY_MANAGER_ROLES } from '../roles.ts';
import { CompanyImage } from './CompanyImage.tsx';

export function BrandingTab({ company }: { company: Schemas['Company'] }) {
  const canManage = useRoles(...COMPANY_MANAGER_ROLES);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <CompanyImage company={company} kind="avatar" canManage={canManage} />
      <CompanyImage company={company} kind="banner" canManage={canManage} />
    </SimpleGrid>
  );
}
