// Voice (issue 28, point 4): CloudPBXs and everything under them. The menu shows to the readers of
// a CloudPBX (pbx.policy.ts); each tab of a CloudPBX is its own lazy page.
import { lazyPage, type Area } from '../../areas.ts';
import { READ_PBX } from './roles.ts';

export const voice: Area = {
  label: 'Voice',
  nav: [{ to: '/cloudpbxs', label: 'CloudPBXs', roles: READ_PBX }],
  routes: [
    { path: 'cloudpbxs', ...lazyPage(() => import('./CloudPbxsPage.tsx')) },
    { path: 'cloudpbxs/new', ...lazyPage(() => import('./NewCloudPbxPage.tsx')) },
    {
      path: 'cloudpbxs/:systemId',
      ...lazyPage(() => import('./CloudPbxLayout.tsx')),
      children: [
        { index: true, ...lazyPage(() => import('./SettingsTab.tsx')) },
        { path: 'numbering', ...lazyPage(() => import('./NumberingTab.tsx')) },
        { path: 'ddis', ...lazyPage(() => import('./DdisTab.tsx')) },
        { path: 'subscribers', ...lazyPage(() => import('./SubscribersTab.tsx')) },
        { path: 'subscribers/:phoneNumberId', ...lazyPage(() => import('./SubscriberPage.tsx')) },
        { path: 'devices', ...lazyPage(() => import('./DevicesTab.tsx')) },
        { path: 'devices/:deviceId', ...lazyPage(() => import('./DevicePage.tsx')) },
        { path: 'groups', ...lazyPage(() => import('./GroupsTab.tsx')) },
        { path: 'greetings', ...lazyPage(() => import('./GreetingsTab.tsx')) },
        { path: 'recordings', ...lazyPage(() => import('./RecordingsTab.tsx')) },
        { path: 'welcome', ...lazyPage(() => import('./WelcomesTab.tsx')) },
        { path: 'welcome/:ivrId', ...lazyPage(() => import('./OfficeHoursPage.tsx')) },
      ],
    },
  ],
};
