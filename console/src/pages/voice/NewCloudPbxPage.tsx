// Creating a CloudPBX for a company (issue 28, point 4; document 2, createCloudPbx): at most one per
// company, optionally for one of its sites, with its numbering plan (prefixes of internal numbers
// and the digits after them) and its prompts' language.
import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { CompanyPicker } from '../../components/CompanyPicker.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { languageOf } from './languages.ts';
import { NumberingFields } from './NumberingFields.tsx';
import { prefixesOf } from './numbering.ts';
import { pbxPath } from './paths.ts';
import { notify } from '../../lib/notify.ts';

export default function NewCloudPbxPage() {
  const [params] = useSearchParams();
  const [companyId, setCompanyId] = useState<string | null>(params.get('companyId'));
  const [siteId, setSiteId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [language, setLanguage] = useState<string | null>('en');
  const [prefixes, setPrefixes] = useState('2');
  const [digits, setDigits] = useState<number | string>(3);
  const navigate = useNavigate();
  const qc = useQueryClient();
  // The sites of the chosen company (one short page: a CloudPBX is made for one of them).
  const sites = useQuery({
    queryKey: ['sites-of', companyId],
    enabled: Boolean(companyId),
    queryFn: () =>
      unwrap(api.GET('/api/svc/admin/v1.0/sites', { params: { query: { companyId: companyId ?? '', limit: 100 } } })),
  });
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs', {
          body: {
            companyId: companyId ?? '',
            ...(siteId ? { siteId } : {}),
            ...(name.trim() ? { name: name.trim() } : {}),
            language: languageOf(language),
            numberingPrefixes: prefixesOf(prefixes),
            numberingDigits: Number(digits),
          },
        }),
      ),
    onSuccess: async (made) => {
      await qc.invalidateQueries({ queryKey: ['cloudpbxs'] });
      notify(`CloudPBX ${made.data.name ?? ''} created`);
      void navigate(pbxPath(made.data.id ?? ''));
    },
  });
  return (
    <>
      <PageHeader title="New CloudPBX" />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Stack maw={520}>
          <ErrorNotice error={create.error ?? sites.error} />
          <CompanyPicker
            value={companyId}
            onChange={(id) => {
              setCompanyId(id);
              setSiteId(null);
            }}
            required
          />
          <Select
            label="Site"
            description="The site of the company the CloudPBX serves (optional)"
            clearable
            disabled={!companyId}
            value={siteId}
            onChange={setSiteId}
            data={(sites.data?.data ?? []).map((s) => ({ value: s.id ?? '', label: s.name ?? s.id ?? '' }))}
          />
          <TextInput
            label="Name"
            description="The company's name when left empty"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <NumberingFields {...{ language, setLanguage, prefixes, setPrefixes, digits, setDigits }} />
          <Group>
            <Button type="submit" loading={create.isPending} disabled={!companyId}>
              Create the CloudPBX
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
