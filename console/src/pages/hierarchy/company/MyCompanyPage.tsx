// "My company": the company pages of the signed-in user's own company, for the administrators
// who have no companies list (company_admin, site_admin).
import { Navigate } from 'react-router';
import { useSession } from '../../../auth/roles.ts';

export default function MyCompanyPage() {
  const s = useSession();
  return <Navigate to={`/companies/${s?.user.companyId ?? ''}`} replace />;
}
