// What an area of the console brings: its menu entries and its pages. Each area lives in its own
import type React from 'react';
// folder under src/pages/ and is listed once in src/routes.tsx; pages load lazily, so the first
// page carries none of them.
import type { RouteObject } from 'react-router';
import type { Role } from './auth/roles.ts';

export interface NavItem {
  /** Path under /console/. */
  to: string;
  label: string;
  /** Shown to these roles only; every signed-in user when absent. */
  roles?: readonly Role[];
  /** Other paths (React Router patterns) under which this entry is the current one. */
  also?: string[];
}

export interface Area {
  label: string;
  nav: NavItem[];
  routes: RouteObject[];
}

/** A route's lazily loaded page: the module's default export is the page's component. */
export const lazyPage = (load: () => Promise<{ default: React.ComponentType }>) => ({
  lazy: async () => ({ Component: (await load()).default }),
});
