// A success message of the voice pages (the console's notifications; the theme names their close
// button for screen readers, src/main.tsx).
import { notifications } from '@mantine/notifications';

export function notify(message: string): void {
  notifications.show({ message });
}
