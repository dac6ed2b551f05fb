// A success message (the console's notifications), its close button named for screen readers
// (axe: button-name; Mantine's close button has no name of its own).
import { notifications } from '@mantine/notifications';

export function notify(message: string): void {
  notifications.show({ message, closeButtonProps: { 'aria-label': 'Close the message' } });
}
