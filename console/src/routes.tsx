// The console's routes, under /console/: the sign-in page, the OAuth callback, and every area's
// pages inside the signed-in frame.
import { createBrowserRouter, Navigate } from 'react-router';
import { SignIn } from './auth/SignIn.tsx';
import { Shell } from './layout/Shell.tsx';
import { AREAS } from './area-list.ts';
import { lazyPage } from './areas.ts';
import { NotFound } from './components/NotFound.tsx';
import { Loading } from './components/Loading.tsx';

export const router = createBrowserRouter(
  [
    { path: '/signin', element: <SignIn /> },
    // The OAuth code arrives here inside the sign-in's own request; a person landing here goes on.
    { path: '/oauth/callback', element: <Navigate to="/" replace /> },
    {
      path: '/',
      element: <Shell />,
      // The first page's lazy module loads while this shows.
      hydrateFallbackElement: <Loading />,
      children: [
        { index: true, ...lazyPage(() => import('./pages/overview/OverviewPage.tsx')) },
        ...AREAS.flatMap((a) => a.routes),
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/console' },
);
