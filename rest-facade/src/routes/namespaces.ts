import { ListNamespacesDocument } from '../generated/operations';
import type { Route } from '../route';

export const namespaceRoutes: Route[] = [
  {
    method: 'get',
    path: '/namespaces',
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
