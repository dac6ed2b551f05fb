// The console's entry (issue 28): Mantine for accessible components, TanStack Query for data with
// caching, React Router for pages.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';
import { MantineProvider, NavLink, Notification, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ApiError } from './api/errors.ts';
import { router } from './routes.tsx';

// Contrast of at least 4.5:1 everywhere (WCAG AA, checked by axe in the browser suite): darker
// primary shades than the defaults, a darker "dimmed" text, and the active menu entry filled.
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  components: {
    NavLink: NavLink.extend({ defaultProps: { variant: 'filled' } }),
    // The close button of a notification has no text: it needs a name (axe: button-name).
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close the notification' } },
    }),
  },
});
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A refusal does not become right by asking again.
      retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={contrast}>
        <Notifications position="top-right" />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  );
