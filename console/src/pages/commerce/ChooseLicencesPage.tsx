import { ChooseCompany } from './ChooseCompany.tsx';

export default function ChooseLicencesPage() {
  return <ChooseCompany title="Licences" section="licences" />;
}
