// A success message (issue 28: a change says that it worked). The theme names the close button of
// every notification for screen readers (src/main.tsx).
import { notifications } from '@mantine/notifications';

export function notify(message: string): void {
  notifications.show({ message });
}
