// Join links and invitations of a company (issue 28, point 2), each for the roles its policy names.
import { Stack } from '@mantine/core';
import { useRoles } from '../../../auth/roles.ts';
import { INVITATION_READ_ROLES, JOIN_LINK_READ_ROLES } from '../roles.ts';
import { JoinInvitations } from './JoinInvitations.tsx';
import { JoinLinks } from './JoinLinks.tsx';

export function JoinTab({ companyId, isBP }: { companyId: string; isBP: boolean }) {
  const seesLinks = useRoles(...JOIN_LINK_READ_ROLES);
  const seesInvitations = useRoles(...INVITATION_READ_ROLES);
  return (
    <Stack>
      {seesLinks ? <JoinLinks companyId={companyId} /> : null}
      {seesInvitations ? <JoinInvitations companyId={companyId} isBP={isBP} /> : null}
    </Stack>
  );
}
