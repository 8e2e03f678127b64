import { ANONYMOUS, type Principal } from '@hub/common';
import { lookupBesideEntities, membershipStandIn, privateProject, userPrincipal } from '@hub/common/testing';
import { newSigningSecret } from './delivery/signing';
import { readingHooksSubgraph } from './testing/hooks-subgraph';

// A delivery is a Node: node(id:) asks this subgraph for it by global id (and the gateway then by
// databaseId), and it shows only to those who may see its hook.

const OWNER = 1;
const MASTER = 2;
const DEVELOPER = 3;
const STRANGER = 4;
const ADMIN = 9;
/** Membership's answers: project 10 is private, owned by OWNER. */
const membership = membershipStandIn([privateProject(10, OWNER)], { [MASTER]: 40, [DEVELOPER]: 30 });
const admin = userPrincipal(ADMIN, { isAdmin: true });

/** What node(id:) asks the owner for: entities by representation. */
const ENTITIES = `query($r: [_Any!]!) { _entities(representations: $r) {
  ... on HookDelivery { __typename id databaseId hookId eventName state attempts { statusCode } }
} }`;

describe('hooks subgraph: deliveries by global id', () => {
  const { db, subgraph, start, stop } = readingHooksSubgraph(membership);
  let projectHook: number;
  let systemHook: number;
  let projectDelivery: number;
  let systemDelivery: number;

  /** `_entities` for one representation, as `principal`: the entity (or null), with no error. */
  const entity = async (representation: Record<string, unknown>, principal: Principal) => {
    const result = await subgraph.run(ENTITIES, { r: [representation] }, principal);
    expect(result.errors).toBeUndefined();
    return result.data?._entities[0];
  };
  const byGlobalId = (id: number, principal: Principal) =>
    entity({ __typename: 'HookDelivery', id: `gid://hub/HookDelivery/${id}` }, principal);

  beforeAll(async () => {
    await start();
    [{ id: projectHook }] = await db.sql<{ id: number }[]>`
      insert into hooks (project_id, url, signing_secret) values (10, 'https://example.com/p', ${newSigningSecret()}) returning id`;
    [{ id: systemHook }] = await db.sql<{ id: number }[]>`
      insert into hooks (kind, url, signing_secret) values ('system', 'https://example.com/s', ${newSigningSecret()}) returning id`;
    const deliver = async (hookId: number, eventName: string) => {
      const [{ id }] = await db.sql<{ id: string }[]>`
        insert into deliveries (hook_id, event_key, event_name, webhook_id, payload)
        values (${hookId}, ${`test:${hookId}`}, ${eventName}, ${`msg_${hookId}`}, '{}') returning id`;
      return Number(id);
    };
    projectDelivery = await deliver(projectHook, 'Issue Hook');
    systemDelivery = await deliver(systemHook, 'System Hook');
    await db.sql`insert into delivery_attempts (delivery_id, started_at, duration_ms, status_code, request_headers, worker)
      values (${projectDelivery}, now(), 5, 503, '{}', 'w')`;
  });
  afterAll(stop);

  it("answers a project hook's delivery to Masters and up of its project, and to admins", async () => {
    const expected = {
      __typename: 'HookDelivery',
      id: `gid://hub/HookDelivery/${projectDelivery}`,
      databaseId: projectDelivery,
      hookId: projectHook,
      eventName: 'Issue Hook',
      state: 'pending',
      attempts: [{ statusCode: 503 }],
    };
    for (const principal of [userPrincipal(MASTER), userPrincipal(OWNER), admin])
      expect(await byGlobalId(projectDelivery, principal)).toEqual(expected);
    // The gateway's second hop names it by databaseId (projects' key): the same rule applies.
    expect(await entity({ __typename: 'HookDelivery', databaseId: projectDelivery }, userPrincipal(MASTER))).toEqual(
      expected,
    );
  });

  it("answers null for a project hook's delivery to a Developer, a stranger and an anonymous caller", async () => {
    for (const principal of [userPrincipal(DEVELOPER), userPrincipal(STRANGER), ANONYMOUS])
      expect(await byGlobalId(projectDelivery, principal)).toBeNull();
    expect(
      await entity({ __typename: 'HookDelivery', databaseId: projectDelivery }, userPrincipal(STRANGER)),
    ).toBeNull();
  });

  it("answers a system hook's delivery to admins only", async () => {
    expect(await byGlobalId(systemDelivery, admin)).toMatchObject({
      id: `gid://hub/HookDelivery/${systemDelivery}`,
      databaseId: systemDelivery,
      hookId: systemHook,
      eventName: 'System Hook',
    });
    // Even the owner of every project there is: a system hook is the installation's.
    for (const principal of [userPrincipal(OWNER), userPrincipal(MASTER), ANONYMOUS])
      expect(await byGlobalId(systemDelivery, principal)).toBeNull();
  });

  it('answers null for a missing delivery and for a global id of another type, without an error', async () => {
    expect(await byGlobalId(systemDelivery + 1_000_000, admin)).toBeNull();
    // Past 2^31 (deliveries are a bigserial) and at the end of the safe range: still just none.
    expect(await byGlobalId(2 ** 31 + 5, admin)).toBeNull();
    expect(await byGlobalId(Number.MAX_SAFE_INTEGER, admin)).toBeNull();
    expect(await entity({ __typename: 'HookDelivery', id: `gid://hub/Hook/${projectDelivery}` }, admin)).toBeNull();
  });

  it("shows the global id and the databaseId in a hook's log, and takes the databaseId to name one", async () => {
    const answer = await subgraph.run(
      `query($h: Int!, $d: Int!) { _entities(representations: [{ __typename: "Project", databaseId: 10 }]) {
        ... on Project { hook(id: $h) { deliveries { nodes { id databaseId } } delivery(id: $d) { id databaseId } } }
      } }`,
      { h: projectHook, d: projectDelivery },
      userPrincipal(MASTER),
    );
    expect(answer.errors).toBeUndefined();
    const one = { id: `gid://hub/HookDelivery/${projectDelivery}`, databaseId: projectDelivery };
    expect(answer.data?._entities[0].hook).toEqual({ deliveries: { nodes: [one] }, delivery: one });
  });

  it("answers hookDeliveryNodes(ids:), the gateway's one-hop lookup, as _entities answers each global id", async () => {
    const ids = [projectDelivery, systemDelivery, systemDelivery + 1_000_000].map(
      (id) => `gid://hub/HookDelivery/${id}`,
    );
    const LOOKUP = {
      field: 'hookDeliveryNodes',
      type: 'HookDelivery',
      selection: '__typename id databaseId hookId eventName state attempts { statusCode }',
    };
    for (const principal of [
      userPrincipal(OWNER),
      userPrincipal(MASTER),
      userPrincipal(DEVELOPER),
      userPrincipal(STRANGER),
      admin,
      ANONYMOUS,
    ]) {
      const { errors, nodes, entities } = await lookupBesideEntities(subgraph, LOOKUP, ids, principal);
      expect(errors).toBeUndefined();
      expect(nodes).toEqual(entities);
    }
    const databaseIds = async (principal: Principal) =>
      (await lookupBesideEntities(subgraph, LOOKUP, ids, principal)).nodes?.map(
        (found) => (found as { databaseId: number } | null)?.databaseId ?? null,
      );
    expect(await databaseIds(userPrincipal(MASTER))).toEqual([projectDelivery, null, null]);
    expect(await databaseIds(admin)).toEqual([projectDelivery, systemDelivery, null]);
  });
});
