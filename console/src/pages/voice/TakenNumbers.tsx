// The numbers a CloudPBX's plan has given out (issue 28, points 4 and 9): subscribers, groups and
// devices, each a list paged by the service (getNumberingPlan with limit and offset, its
// allocatedTotals), so a plan of 10,000 subscribers opens as fast as one of ten.
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ServerTable, type Column, type PageRequest } from '../../components/ServerTable.tsx';

const planPage = async (systemId: string, req: PageRequest) =>
  (
    await unwrap(
      api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/numbering-plan', {
        params: { path: { systemId }, query: { limit: req.limit, offset: req.offset } },
      }),
    )
  ).data;

type Taken = Awaited<ReturnType<typeof planPage>>['allocatedNumbers'];
type Kind = keyof Taken;

async function pageOf<K extends Kind>(systemId: string, kind: K, req: PageRequest) {
  const plan = await planPage(systemId, req);
  return { data: plan.allocatedNumbers[kind], total: plan.allocatedTotals?.[kind] ?? 0 };
}

const number = { key: 'n', label: 'Number', render: (r: { shortNumber: string }) => r.shortNumber };

const subscriberColumns: Column<Taken['subscribers'][number]>[] = [
  number,
  { key: 'who', label: 'Subscriber', render: (s) => s.userDisplayName },
];
const groupColumns: Column<Taken['groups'][number]>[] = [
  number,
  { key: 'who', label: 'Group', render: (g) => `${g.groupName} (${g.type})` },
];
const deviceColumns: Column<Taken['devices'][number]>[] = [
  number,
  { key: 'who', label: 'Subscriber', render: (d) => d.userDisplayName },
  { key: 'mac', label: 'MAC address', render: (d) => d.macAddress ?? '—' },
];

export function TakenNumbers({ systemId }: { systemId: string }) {
  return (
    <>
      <ServerTable
        caption="Numbers of subscribers"
        queryKey={['numbering-plan', systemId, 'subscribers']}
        fetchPage={(req) => pageOf(systemId, 'subscribers', req)}
        columns={subscriberColumns}
        rowKey={(s) => s.shortNumber}
      />
      <ServerTable
        caption="Numbers of groups"
        queryKey={['numbering-plan', systemId, 'groups']}
        fetchPage={(req) => pageOf(systemId, 'groups', req)}
        columns={groupColumns}
        rowKey={(g) => g.vcpGroupId}
      />
      <ServerTable
        caption="Numbers of SIP devices"
        queryKey={['numbering-plan', systemId, 'devices']}
        fetchPage={(req) => pageOf(systemId, 'devices', req)}
        columns={deviceColumns}
        rowKey={(d) => `${d.shortNumber}-${d.macAddress ?? ''}-${d.userId}`}
      />
    </>
  );
}
