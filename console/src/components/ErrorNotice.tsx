// A refused or failed request, explained in words (issue 28, point 1: a 403 is never silent).
import { Alert } from '@mantine/core';
import { explain } from '../api/errors.ts';

export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const { title, message } = explain(error);
  return (
    <Alert color="red" title={title} role="alert" mb="md">
      {message}
    </Alert>
  );
}
