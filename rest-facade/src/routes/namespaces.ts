import { ListNamespacesDocument } from '../generated/operations';
import { PAGE, str } from '../param-docs';
import type { Route } from '../route';

export const namespaceRoutes: Route[] = [
  {
    method: 'get',
    path: '/namespaces',
    summary: "Lists the namespaces the caller may see (admins: all); a user's and groups' alike",
    params: { search: str(), ...PAGE },
    response: (g) => g.select(ListNamespacesDocument, 'namespaces.nodes'),
    handle: async (p, gateway) => {
      const window = p.window();
      const { namespaces } = await gateway(ListNamespacesDocument, {
        search: p.string('search') ?? null,
        page: window.page,
        perPage: window.perPage,
      });
      return { body: namespaces.nodes, page: { window, total: namespaces.total } };
    },
  },
];
