import { ChooseCompany } from './ChooseCompany.tsx';

export default function ChooseSubscriptionsPage() {
  return <ChooseCompany title="Subscriptions" section="subscriptions" />;
}
