// A company's invoices and invoicing files (issue 28, point 3). Each part shows to the roles the
// service's policy lets read it (roles.ts); document 1: only BP DR and VAD companies have invoices.
import { Title } from '@mantine/core';
import { useParams } from 'react-router';
import { useRoles } from '../../auth/roles.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useCompanyName } from '../commerce/subscriptions-query.ts';
import { InvoiceList } from './InvoiceList.tsx';
import { InvoicingFiles } from './InvoicingFiles.tsx';
import { FILE_READERS, INVOICE_READERS } from './roles.ts';

export default function CompanyInvoicesPage() {
  const { companyId = '' } = useParams();
  const name = useCompanyName(companyId);
  const readsInvoices = useRoles(...INVOICE_READERS);
  const readsFiles = useRoles(...FILE_READERS);
  return (
    <>
      <PageHeader title={`Invoices of ${name}`} />
      {readsInvoices ? <InvoiceList companyId={companyId} /> : null}
      {readsFiles ? (
        <>
          <Title order={2} size="h4" mt="xl" mb="sm">
            Invoicing files
          </Title>
          <InvoicingFiles companyId={companyId} />
        </>
      ) : null}
    </>
  );
}
