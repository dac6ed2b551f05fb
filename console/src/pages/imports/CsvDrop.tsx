// Dropping the CSV (issue 28, point 5: "drop a CSV"): a file dropped or chosen with the keyboard
// (the zone is a button that opens the file chooser). The CSV must be UTF-8 (document 3, "CSV,
// UTF-8"): a file that is not is explained here rather than sent and refused.
import '@mantine/dropzone/styles.css';
import { Group, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';

export interface DroppedCsv {
  name: string;
  text: string;
  bytes: number;
}

/** The import's own ceiling (IMPORT_MAX_BYTES, default 50 MB); the service says so with 413 if it is lower. */
const MAX_BYTES = 50 * 1024 * 1024;
const ACCEPT = {
  'text/csv': ['.csv'],
  'text/plain': ['.csv', '.txt'],
  // Some systems name a CSV file so.
  'application/vnd.ms-excel': ['.csv'],
};

export async function readCsv(file: File): Promise<DroppedCsv> {
  const buf = await file.arrayBuffer();
  try {
    // fatal: a byte sequence that is not UTF-8 throws instead of becoming U+FFFD.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return { name: file.name, text, bytes: buf.byteLength };
  } catch {
    throw new Error(`${file.name} is not UTF-8 text: save it as “CSV UTF-8” and drop it again.`);
  }
}

interface Props {
  onFile: (f: File) => void;
  onReject: (message: string) => void;
  file: DroppedCsv | null;
  disabled?: boolean;
}

export function CsvDrop({ onFile, onReject, file, disabled }: Props) {
  const rejected = (r: FileRejection[]) =>
    onReject(r.map((x) => `${x.file.name}: ${x.errors.map((e) => e.message).join(', ')}`).join('; '));
  return (
    <Dropzone
      onDrop={(files) => {
        const [f] = files;
        if (f) onFile(f);
      }}
      onReject={rejected}
      accept={ACCEPT}
      maxSize={MAX_BYTES}
      multiple={false}
      disabled={disabled}
      aria-label="CSV file: drop it here or press to choose it"
      data-testid="csv-dropzone"
    >
      <Group justify="center" mih={110} style={{ pointerEvents: 'none' }}>
        <Stack gap={4} align="center">
          <Dropzone.Accept>
            <Text fw={700}>Drop the CSV here</Text>
          </Dropzone.Accept>
          <Dropzone.Reject>
            <Text fw={700} c="red.9">
              Only one CSV file (UTF-8, at most 50 MB)
            </Text>
          </Dropzone.Reject>
          <Dropzone.Idle>
            <Text fw={700}>
              {file ? `${file.name} (${file.bytes.toLocaleString()} bytes)` : 'Drop a CSV file here'}
            </Text>
            <Text size="sm" c="dimmed">
              {file ? 'Drop another file to replace it' : 'or click to choose one (UTF-8, at most 50 MB)'}
            </Text>
          </Dropzone.Idle>
        </Stack>
      </Group>
    </Dropzone>
  );
}
