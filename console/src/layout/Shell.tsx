// The frame of every page once signed in: the header with the user and sign-out, the menus the
// user's roles may use, and the token's renewal before it expires (issue 28, point 1).
import { AppShell, Burger, Button, Group, NavLink, ScrollArea, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useEffect } from 'react';
import { Link, Navigate, Outlet, matchPath, useLocation } from 'react-router';
import type { NavItem } from '../areas.ts';
import { hasRole, useSession } from '../auth/roles.ts';
import { session } from '../auth/session.ts';
import { renew, signOut } from '../auth/sign-in.ts';
import { AREAS } from '../area-list.ts';
import { Loading } from '../components/Loading.tsx';

function useRenewal() {
  const s = useSession();
  useEffect(() => {
    const at = session.renewAt();
    if (!s || at === null) return;
    const timer = setTimeout(() => void renew(), Math.max(0, at - Date.now()));
    return () => clearTimeout(timer);
  }, [s]);
}

/**
 * How closely `item` names `path`: the number of segments of its most specific matching pattern
 * (its own path, anything under it, or one of its `also` patterns), 0 when none matches. The menu
 * marks the closest entry only: /companies/x/subscriptions is Subscriptions, not Companies.
 */
function closeness(item: NavItem, path: string): number {
  const patterns = [item.to, `${item.to}/*`, ...(item.also ?? [])];
  let best = 0;
  for (const p of patterns) {
    if (matchPath({ path: p, end: true }, path))
      best = Math.max(best, p.split('/').filter((x) => x && x !== '*').length);
  }
  return best;
}

export function Shell() {
  const s = useSession();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  useRenewal();
  useEffect(close, [location.pathname, close]);
  if (!s) return <Navigate to="/signin" replace state={{ from: location.pathname }} />;
  const name = [s.user.firstName, s.user.lastName].filter(Boolean).join(' ') || s.user.loginEmail;
  const path = location.pathname;
  const shown = AREAS.flatMap((a) => a.nav).filter((n) => hasRole(s, n.roles));
  const closest = Math.max(0, ...shown.map((n) => closeness(n, path)));
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <Title order={2} size="h4">
              <Link to="/" style={{ color: 'inherit', textDecoration: 'none' }}>
                Administration console
              </Link>
            </Title>
          </Group>
          <Group wrap="nowrap" gap="sm">
            <Text size="sm" visibleFrom="sm" data-testid="signed-in-user">
              {name} · {s.user.roles.join(', ')}
            </Text>
            <Button variant="default" size="xs" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main menu">
        <ScrollArea>
          <NavLink component={Link} to="/" label="Overview" active={location.pathname === '/'} />
          {AREAS.map((area) => {
            const items = area.nav.filter((n) => hasRole(s, n.roles));
            if (items.length === 0) return null;
            return (
              <div key={area.label}>
                <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="md" mb={4} px="sm" component="h2">
                  {area.label}
                </Text>
                {items.map((n) => (
                  <NavLink
                    key={n.to}
                    component={Link}
                    to={n.to}
                    label={n.label}
                    active={closest > 0 && closeness(n, path) === closest}
                  />
                ))}
              </div>
            );
          })}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
