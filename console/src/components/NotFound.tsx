import { Text } from '@mantine/core';
import { PageHeader } from './PageHeader.tsx';

export function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" />
      <Text>This page does not exist in the console. Choose one from the menu.</Text>
    </>
  );
}
