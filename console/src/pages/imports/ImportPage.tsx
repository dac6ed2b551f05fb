// Bulk import (issue 28, point 5: "Download a template, drop a CSV, read the check report before
// importing, start the import"). The check runs as soon as a file is dropped (a dry run: nothing is
// written, document 3 "Check a CSV"); the import starts only from a check of the same file, kind
// and company, and opens its progress page.
import { Alert, Anchor, Button, Checkbox, Group, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/errors.ts';
import { useRoles, useSession } from '../../auth/roles.ts';
import { CompanyPicker } from '../../components/CompanyPicker.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { download } from '../../lib/download.ts';
import { CheckReportView } from './CheckReportView.tsx';
import { CsvDrop, readCsv, type DroppedCsv } from './CsvDrop.tsx';
import { checkCsv, startImport, templateUrl, type CsvRequest } from './csv-api.ts';
import { KINDS, canSync, isKind, type ImportKind } from './kinds.ts';
import { RecentImports } from './RecentImports.tsx';

export default function ImportPage() {
  const s = useSession();
  const [params, setParams] = useSearchParams();
  // Only these roles import into a company other than their own (imports.policy.ts).
  const picksCompany = useRoles('superadmin', 'bp_admin', 'organization_admin');
  // A bp_admin imports into his End Customers, not into his BP's own company (imports.policy.ts):
  // he chooses one first.
  const intoOwn = useRoles('superadmin', 'organization_admin', 'company_admin');
  // ?companyId= preselects the company (links from a company's page); default the caller's own.
  const companyId = params.get('companyId') ?? (intoOwn ? (s?.user.companyId ?? '') : '');
  const [kind, setKind] = useState<ImportKind>('users');
  const [sync, setSync] = useState(false);
  const [label, setLabel] = useState('');
  const [file, setFile] = useState<DroppedCsv | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const navigate = useNavigate();
  const qc = useQueryClient();

  const request = (csv: string): CsvRequest => ({ kind, companyId, csv, sync: sync && canSync(kind), label });
  const check = useMutation({ mutationFn: checkCsv });
  const template = useMutation({
    mutationFn: () =>
      download(templateUrl(companyId, KINDS[kind].templateMode), `template-${KINDS[kind].templateMode}.csv`),
  });
  const start = useMutation({
    mutationFn: startImport,
    onSuccess: async (started) => {
      notifications.show({ message: `Import started (${started.mode})` });
      await qc.invalidateQueries({ queryKey: ['imports', companyId] });
      void navigate(`/imports/${started.reqId}`, { state: { expected: check.data?.total } });
    },
  });
  // A change of what would be imported makes the last check stale: it is dropped, then redone.
  const changed = (next: Partial<{ kind: ImportKind; sync: boolean; companyId: string }>) => {
    start.reset();
    if (file) check.mutate({ ...request(file.text), ...next, sync: (next.sync ?? sync) && canSync(next.kind ?? kind) });
    else check.reset();
  };

  const onFile = async (f: File) => {
    setFileError(null);
    start.reset();
    try {
      const read = await readCsv(f);
      setFile(read);
      check.mutate(request(read.text));
    } catch (err) {
      setFile(null);
      check.reset();
      setFileError(err instanceof Error ? err.message : String(err));
    }
  };

  const report = check.data;
  // 409900: the same data was imported already (rule 1); its report has the check's reqId.
  const already = start.error instanceof ApiError && start.error.status === 409 && report ? report.reqId : null;

  return (
    <>
      <PageHeader title="Bulk import" />
      <Stack gap="md" maw={960}>
        {picksCompany ? (
          <CompanyPicker
            label="Company to import into"
            value={companyId || null}
            required
            onChange={(id) => {
              if (!id) return;
              setParams({ companyId: id }, { replace: true });
              changed({ companyId: id });
            }}
          />
        ) : (
          <Text>The users are imported into your company.</Text>
        )}
        <div>
          <Text component="div" id="import-kind-label" fw={500} size="sm">
            What the CSV holds
          </Text>
          <SegmentedControl
            aria-labelledby="import-kind-label"
            display="flex"
            value={kind}
            onChange={(v) => {
              if (!isKind(v)) return;
              setKind(v);
              changed({ kind: v });
            }}
            data={Object.entries(KINDS).map(([value, k]) => ({ value, label: k.label }))}
          />
          <Text size="sm" c="dimmed" mt={4}>
            {KINDS[kind].description}
          </Text>
        </div>
        {canSync(kind) ? (
          <Checkbox
            label="Synchronise: empty cells clear the values they stand for (lines default to sync, not upsert)"
            checked={sync}
            onChange={(e) => {
              const v = e.currentTarget.checked;
              setSync(v);
              changed({ sync: v });
            }}
          />
        ) : null}
        <Group>
          <Button
            variant="default"
            onClick={() => template.mutate()}
            loading={template.isPending}
            disabled={!companyId}
          >
            Download the {KINDS[kind].label.toLowerCase()} template
          </Button>
          <Text size="sm" c="dimmed">
            Its comment lines (starting with %) describe each column; the import skips them.
          </Text>
        </Group>
        <ErrorNotice error={template.error} />
        <CsvDrop file={file} onFile={(f) => void onFile(f)} onReject={setFileError} disabled={!companyId} />
        {fileError ? (
          <Alert color="red" title="This file cannot be read" role="alert">
            {fileError}
          </Alert>
        ) : null}
        <ErrorNotice error={check.error} />
        {check.isPending ? <Text role="status">Checking the file…</Text> : null}
        {report && file ? (
          <>
            <CheckReportView report={report} />
            <Title order={2} size="h3">
              Import
            </Title>
            <Group align="end">
              <TextInput
                label="Label (optional)"
                value={label}
                onChange={(e) => setLabel(e.currentTarget.value)}
                maxLength={255}
                w={320}
              />
              <Button
                onClick={() => start.mutate(request(file.text))}
                loading={start.isPending}
                disabled={report.valid === 0}
              >
                Import {report.valid} valid {report.valid === 1 ? 'line' : 'lines'}
              </Button>
            </Group>
            {report.valid < report.total ? (
              <Text size="sm" c="dimmed">
                The lines with errors are tried too and fail again: the report lists them and their file can be
                downloaded, fixed and imported.
              </Text>
            ) : null}
            <ErrorNotice error={start.error} />
            {already ? (
              <Anchor component={Link} to={`/imports/${already}`}>
                Open the import of this file
              </Anchor>
            ) : null}
          </>
        ) : null}
        <Title order={2} size="h3" mt="lg">
          Previous imports
        </Title>
        {companyId ? <RecentImports companyId={companyId} /> : <Text>Choose the company first.</Text>}
      </Stack>
    </>
  );
}
