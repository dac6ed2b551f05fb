// The company's service description (document 3, getServiceDescription): a PDF the service
// writes, fetched with the bearer token, then saved or shown in the page (object URLs, which the
// console's CSP allows in frames).
import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../../../api/client.ts';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { download, fetchFile } from '../../../lib/download.ts';
import { useObjectUrl } from './useObjectUrl.ts';

export function ServiceDescriptionTab({ company }: { company: Schemas['Company'] }) {
  const companyId = company.id ?? '';
  const url = `/api/svc/admin/v1.0/companies/${companyId}/service-description`;
  const filename = `service-description-${(company.name ?? companyId).replace(/[^\w-]+/g, '_')}.pdf`;
  const [pdf, setPdf] = useState<Blob | null>(null);
  const previewUrl = useObjectUrl(pdf);
  const save = useMutation({ mutationFn: () => download(url, filename, 'application/pdf') });
  const preview = useMutation({
    mutationFn: () => fetchFile(url, 'application/pdf'),
    onSuccess: setPdf,
  });
  return (
    <Stack>
      <Text>The description of the services of {company.name}, as a PDF document.</Text>
      <ErrorNotice error={save.error ?? preview.error} />
      <Group>
        <Button loading={save.isPending} onClick={() => save.mutate()}>
          Download PDF
        </Button>
        <Button variant="default" loading={preview.isPending} onClick={() => preview.mutate()}>
          Preview
        </Button>
      </Group>
      {previewUrl ? (
        <iframe
          src={previewUrl}
          title={`Service description of ${company.name ?? 'the company'}`}
          style={{ width: '100%', height: 600, border: '1px solid var(--mantine-color-gray-4)' }}
        />
      ) : null}
    </Stack>
  );
}
