// Uploading a greeting (issue 28, point 4; document 2, uploadGreeting): a WAV or MP3 dropped or
// chosen for one greeting of the scope becomes its active file; the service judges the audio from
// its content and says what is wrong with a refused one.
import { Group, Select, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import type { GreetingScope } from './greeting-scope.ts';
import { notify } from '../../lib/notify.ts';

const ACCEPT = ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave', 'audio/mpeg', 'audio/mp3', 'audio/ogg'];
/** The service's limit (issue 26, point 3: more than 10 MB is 413). */
const MAX_BYTES = 10 * 1024 * 1024;

interface Props {
  systemId: string;
  scope: GreetingScope;
  scopeKey: string;
  greetingIds: string[];
}

export function GreetingUpload({ systemId, scope, scopeKey, greetingIds }: Props) {
  const qc = useQueryClient();
  const [greetingId, setGreetingId] = useState<string | null>(greetingIds[0] ?? null);
  const [refused, setRefused] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) =>
      unwrap(
        api.PUT('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/greetings/{fileId}', {
          params: { path: { systemId, fileId: greetingId ?? '' }, query: { ...scope, fileName: file.name } },
          // The body is the file's bytes as they are: the typed body is a string (format binary),
          // so an empty one stands in and the serializer hands over the file itself.
          body: '',
          bodySerializer: () => file,
          headers: { 'Content-Type': file.type || 'application/octet-stream' },
        }),
      ),
    onSuccess: async (g) => {
      await qc.invalidateQueries({ queryKey: ['greetings', systemId, scopeKey] });
      notify(`${g.data.fileName} is now the ${g.data.greetingId} greeting`);
    },
  });
  return (
    <Stack gap="xs" maw={620} mb="lg">
      <ErrorNotice error={upload.error} />
      <Select
        label="Greeting to replace"
        data={greetingIds}
        value={greetingId}
        onChange={setGreetingId}
        allowDeselect={false}
        w={260}
      />
      <Dropzone
        onDrop={(files) => {
          setRefused(null);
          const f = files[0];
          if (f) upload.mutate(f);
        }}
        onReject={(r) =>
          setRefused(r.map((x) => `${x.file.name}: ${x.errors.map((e) => e.message).join(', ')}`).join('; '))
        }
        accept={ACCEPT}
        maxSize={MAX_BYTES}
        multiple={false}
        loading={upload.isPending}
        disabled={!greetingId}
        inputProps={{ 'aria-label': 'Audio file of the greeting' }}
      >
        <Group justify="center" mih={80} style={{ pointerEvents: 'none' }}>
          <div>
            <Text size="md">Drop a WAV or MP3 file here, or click to choose one</Text>
            <Text size="sm" c="dimmed">
              Up to 10 MB; it becomes the active {greetingId ?? ''} greeting
            </Text>
          </div>
        </Group>
      </Dropzone>
      {refused ? (
        <Text c="red" size="sm" role="alert">
          {refused}
        </Text>
      ) : null}
    </Stack>
  );
}
