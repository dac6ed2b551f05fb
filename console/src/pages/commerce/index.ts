// Commerce (issue 28, point 3): catalogs and offers, subscriptions, quotations, licences. Menus
// follow the service's policy (src/modules/commerce/commerce.policy.ts; roles.ts here).
import { lazyPage, type Area } from '../../areas.ts';
import { CATALOG_READERS, LICENCE_MANAGERS, SUBSCRIPTION_READERS } from './roles.ts';

export const commerce: Area = {
  label: 'Commerce',
  nav: [
    { to: '/catalogs', label: 'Catalogs', roles: CATALOG_READERS },
    { to: '/offers', label: 'Offers', roles: CATALOG_READERS },
    {
      to: '/subscriptions',
      label: 'Subscriptions',
      roles: SUBSCRIPTION_READERS,
      also: ['/companies/:companyId/subscriptions'],
    },
    { to: '/licences', label: 'Licences', roles: LICENCE_MANAGERS, also: ['/companies/:companyId/licences'] },
  ],
  routes: [
    { path: 'catalogs', ...lazyPage(() => import('./CatalogsPage.tsx')) },
    { path: 'catalogs/:catalogId', ...lazyPage(() => import('./CatalogPage.tsx')) },
    { path: 'offers', ...lazyPage(() => import('./OffersPage.tsx')) },
    { path: 'offers/:offerId', ...lazyPage(() => import('./OfferPage.tsx')) },
    { path: 'subscriptions', ...lazyPage(() => import('./ChooseSubscriptionsPage.tsx')) },
    { path: 'licences', ...lazyPage(() => import('./ChooseLicencesPage.tsx')) },
    { path: 'companies/:companyId/subscriptions', ...lazyPage(() => import('./SubscriptionsPage.tsx')) },
    { path: 'companies/:companyId/licences', ...lazyPage(() => import('./LicencesPage.tsx')) },
  ],
};
