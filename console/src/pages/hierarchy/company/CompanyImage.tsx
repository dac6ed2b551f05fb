// One of a company's images (document 3, Avatar and banner): the stored one as the service serves
// it (GET /api/avatar|banner/{companyId}, resized), a file chosen and previewed before it is sent,
// the upload (JSON base64 body of setCompanyAvatar / setCompanyBanner) and the deletion.
import { Button, Card, FileInput, Group, Image, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Schemas } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { fetchFile } from '../../../lib/download.ts';
import { useObjectUrl } from './useObjectUrl.ts';
import { notify } from '../../../lib/notify.ts';
import { ConfirmButton } from '../ConfirmButton.tsx';

type Kind = 'avatar' | 'banner';

interface Props {
  company: Schemas['Company'];
  kind: Kind;
  canManage: boolean;
}

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => (typeof r.result === 'string' ? resolve(r.result) : reject(new Error('unreadable file')));
    r.onerror = () => reject(r.error ?? new Error('unreadable file'));
    r.readAsDataURL(file);
  });

export function CompanyImage({ company, kind, canManage }: Props) {
  const companyId = company.id ?? '';
  const updated = kind === 'avatar' ? company.lastAvatarUpdateDate : company.lastBannerUpdateDate;
  const size = kind === 'avatar' ? 160 : 800;
  const label = kind === 'avatar' ? 'Avatar' : 'Banner';
  const qc = useQueryClient();
  // Asked only when the company has one (a 404 would be a failed request), and again when it changes.
  const stored = useQuery({
    queryKey: ['company-image', companyId, kind, updated],
    queryFn: () => fetchFile(`/api/${kind}/${companyId}?size=${size}`),
    enabled: Boolean(updated),
  });
  const storedUrl = useObjectUrl(updated ? stored.data : null);
  const [file, setFile] = useState<File | null>(null);
  const chosenUrl = useObjectUrl(file);

  const upload = useMutation({
    mutationFn: async (f: File) => {
      const image = await readAsDataUrl(f);
      const params = { path: { companyId } };
      return kind === 'avatar'
        ? unwrap(api.POST('/api/svc/admin/v1.0/companies/{companyId}/avatar', { params, body: { image } }))
        : unwrap(api.POST('/api/svc/admin/v1.0/companies/{companyId}/banner', { params, body: { image } }));
    },
    onSuccess: async () => {
      setFile(null);
      await qc.invalidateQueries({ queryKey: ['company', companyId] });
      notify(`${label} saved`);
    },
  });
  const remove = useMutation({
    mutationFn: () => {
      const params = { path: { companyId } };
      return kind === 'avatar'
        ? unwrap(api.DELETE('/api/svc/admin/v1.0/companies/{companyId}/avatar', { params }))
        : unwrap(api.DELETE('/api/svc/admin/v1.0/companies/{companyId}/banner', { params }));
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['company', companyId] });
      notify(`${label} deleted`);
    },
  });

  const imgProps = kind === 'avatar' ? { w: 160, h: 160 } : { maw: 800, h: 'auto' };
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          {label}
        </Title>
        <ErrorNotice error={stored.error ?? upload.error ?? remove.error} />
        {updated && storedUrl ? (
          <Image src={storedUrl} alt={`${label} of ${company.name ?? 'the company'}`} {...imgProps} fit="contain" />
        ) : (
          <Text c="dimmed">{updated ? 'Loading…' : `No ${kind} yet.`}</Text>
        )}
        {canManage ? (
          <>
            <FileInput
              label={`New ${kind} (PNG, JPEG or WebP)`}
              accept="image/png,image/jpeg,image/webp"
              value={file}
              onChange={setFile}
              clearable
            />
            {chosenUrl ? (
              <Image src={chosenUrl} alt={`Preview of the new ${kind}`} {...imgProps} fit="contain" />
            ) : null}
            <Group>
              <Button disabled={!file} loading={upload.isPending} onClick={() => file && upload.mutate(file)}>
                Upload {kind}
              </Button>
              {updated ? (
                <ConfirmButton label={`Delete ${kind}`} loading={remove.isPending} onConfirm={() => remove.mutate()} />
              ) : null}
            </Group>
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
