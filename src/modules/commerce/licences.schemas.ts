// Schemas of licences (route table, assignUserLicence / unassignUserLicence: document 1 shows no
// payload; the answer is docs/decisions.md's, Licences).
import { Type } from 'typebox';
import { DateTime, Id, Obj } from '../../http/schemas.ts';

export const UserSubscriptionParams = Type.Object({ userId: Id(), subscriptionId: Id() });

export const Licence = Obj(
  {
    subscriptionId: Type.String(),
    userId: Type.String(),
    userCompanyId: Type.String({
      description:
        "the user's company when the licence was assigned (a BP IR's licences also go to its End Customers' users)",
    }),
    assignedAt: DateTime(),
  },
  { description: 'a licence of a subscription held by a user' },
);
