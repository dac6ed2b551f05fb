// A CloudPBX's settings (issue 28, point 4; document 2, updateCloudPbx): what the platform gave it
// (domain, installation number, tenant) shown as facts, and what its managers may change in a
// form. Readers who may not change it (support, site_admin: pbx.policy.ts) see the form disabled.
import { Button, Fieldset, Group, Select, SimpleGrid, Stack, Switch, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { FactsTable } from '../../components/FactsTable.tsx';
import { Loading } from '../../components/Loading.tsx';
import { DeleteCloudPbx } from './DeleteCloudPbx.tsx';
import { languageOf } from './languages.ts';
import { NumberingFields } from './NumberingFields.tsx';
import { prefixesOf } from './numbering.ts';
import { useCanManagePbx } from './roles.ts';
import type { CloudPbx } from './types.ts';
import { usePbx } from './usePbx.ts';
import { notify } from '../../lib/notify.ts';

export default function SettingsTab() {
  const { pbx } = usePbx();
  if (!pbx) return <Loading />;
  // Keyed by the CloudPBX: the form starts from what the service answered for it.
  return <Settings key={pbx.id} pbx={pbx} />;
}

function Facts({ pbx }: { pbx: CloudPbx }) {
  const c = pbx.cloudpbx;
  const rows: [string, string][] = [
    ['Status', pbx.status ?? ''],
    ['Domain', c?.domainName ?? '—'],
    ['Installation number', c?.installationNumber ?? '—'],
    ['Tenant on the voice platform', c?.vcpNumber ?? '—'],
    ['Country', pbx.country ?? '—'],
    ['External trunk', c?.externalTrunkId ?? 'none'],
    ['Created', pbx.creationDate ? new Date(pbx.creationDate).toLocaleString() : ''],
  ];
  return <FactsTable caption="What the platform gave the CloudPBX" rows={rows} labelWidth={240} />;
}

function Settings({ pbx }: { pbx: CloudPbx }) {
  const c = pbx.cloudpbx;
  const canManage = useCanManagePbx();
  const qc = useQueryClient();
  const [name, setName] = useState(pbx.name ?? '');
  const [language, setLanguage] = useState<string | null>(c?.language ?? 'en');
  const [outgoing, setOutgoing] = useState(c?.outgoingPrefix ?? '');
  const [prefixes, setPrefixes] = useState((c?.numberingPrefixes ?? []).join(', '));
  const [digits, setDigits] = useState<number | string>(c?.numberingDigits ?? 3);
  const [forward, setForward] = useState<string | null>(c?.callForwardOptions.externalCallForward ?? 'authorized');
  const [emergencyGroup, setEmergencyGroup] = useState(c?.emergencyOptions.emergencyGroupActivated ?? false);
  const [softPhone, setSoftPhone] = useState(c?.emergencyOptions.callAuthorizationWithSoftPhone ?? false);
  const [monoline, setMonoline] = useState(c?.monolineIncomingMode ?? false);
  const [toPeer, setToPeer] = useState(c?.routeInternalCallsToPeer ?? false);
  const [sip1, setSip1] = useState(c?.customSipHeader_1 ?? '');
  const [sip2, setSip2] = useState(c?.customSipHeader_2 ?? '');
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}', {
          params: { path: { systemId: pbx.id ?? '' } },
          body: {
            name: name.trim(),
            language: languageOf(language),
            ...(outgoing.trim() ? { outgoingPrefix: outgoing.trim() } : {}),
            numberingPrefixes: prefixesOf(prefixes),
            numberingDigits: Number(digits),
            callForwardOptions: { externalCallForward: forward === 'not_authorized' ? 'not_authorized' : 'authorized' },
            emergencyOptions: { emergencyGroupActivated: emergencyGroup, callAuthorizationWithSoftPhone: softPhone },
            monolineIncomingMode: monoline,
            routeInternalCallsToPeer: toPeer,
            customSipHeader_1: sip1.trim() || null,
            customSipHeader_2: sip2.trim() || null,
          },
        }),
      ),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['cloudpbx', pbx.id] });
      await qc.invalidateQueries({ queryKey: ['cloudpbxs'] });
      notify('Settings saved');
    },
  });
  return (
    <>
      <Title order={2} size="h3" mb="sm">
        Settings
      </Title>
      <Facts pbx={pbx} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <ErrorNotice error={save.error} />
        <Fieldset legend="Settings of the CloudPBX" disabled={!canManage} maw={820}>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} required />
              <NumberingFields {...{ language, setLanguage, prefixes, setPrefixes, digits, setDigits }} />
              <TextInput
                label="Outgoing prefix"
                description="Dialled before an external number"
                value={outgoing}
                onChange={(e) => setOutgoing(e.currentTarget.value)}
              />
              <Select
                label="Forwarding to external numbers"
                data={[
                  { value: 'authorized', label: 'Authorised' },
                  { value: 'not_authorized', label: 'Not authorised' },
                ]}
                value={forward}
                onChange={setForward}
                allowDeselect={false}
              />
              <TextInput label="Custom SIP header 1" value={sip1} onChange={(e) => setSip1(e.currentTarget.value)} />
              <TextInput label="Custom SIP header 2" value={sip2} onChange={(e) => setSip2(e.currentTarget.value)} />
            </SimpleGrid>
            <Switch
              label="Emergency group activated"
              checked={emergencyGroup}
              onChange={(e) => setEmergencyGroup(e.currentTarget.checked)}
            />
            <Switch
              label="Emergency calls authorised from soft phones"
              checked={softPhone}
              onChange={(e) => setSoftPhone(e.currentTarget.checked)}
            />
            <Switch
              label="Monoline incoming mode"
              checked={monoline}
              onChange={(e) => setMonoline(e.currentTarget.checked)}
            />
            <Switch
              label="Route internal calls to the peer"
              checked={toPeer}
              onChange={(e) => setToPeer(e.currentTarget.checked)}
            />
            {canManage ? (
              <Group>
                <Button type="submit" loading={save.isPending}>
                  Save the settings
                </Button>
              </Group>
            ) : null}
          </Stack>
        </Fieldset>
      </form>
      {canManage ? <DeleteCloudPbx systemId={pbx.id ?? ''} name={pbx.name ?? ''} /> : null}
    </>
  );
}
