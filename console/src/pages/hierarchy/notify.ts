// A success message (issue 28, point 2: mutations say that they worked). Its close button gets a
// name: axe (issue 28, point 7) refuses a button without one.
import { notifications } from '@mantine/notifications';

export function notify(message: string): void {
  notifications.show({ message, closeButtonProps: { 'aria-label': 'Close the message' } });
}
