import { Group, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';

/** The page's heading (the one h1 of the page) and its actions; also the document's title. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Administration console`;
  }, [title]);
  return (
    <Group justify="space-between" mb="md" wrap="wrap">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children ? <Group gap="sm">{children}</Group> : null}
    </Group>
  );
}
