import { ChooseCompany } from '../commerce/ChooseCompany.tsx';

export default function InvoicesMenuPage() {
  return <ChooseCompany title="Invoices" section="invoices" />;
}
