import { Center, Loader } from '@mantine/core';

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <Center p="xl" role="status" aria-label={label}>
      <Loader size="sm" />
    </Center>
  );
}
