import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Supergraph, operationFromDocument } from '@apollo/federation-internals';
import { QueryPlanner, type PlanNode, type QueryPlan } from '@apollo/query-planner';
import { parse } from 'graphql';
import { facadeOperations } from './facade-operations.test-support';

// Every document the REST facade sends, planned against the composed supergraph as the gateway
// plans it. A plan fetches each path once for all items of a list, never once per item; these
// tests pin how many fetches each route makes per subgraph, so a change that adds one shows.

const supergraph = Supergraph.build(
  readFileSync(resolve(__dirname, '..', 'generated', 'supergraph-internal.graphql'), 'utf8'),
);
const planner = new QueryPlanner(supergraph);
/** Fetches per subgraph in a plan (a plan node visits each subgraph it names once per request). */
function fetchesPerSubgraph(plan: QueryPlan): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (node: PlanNode | undefined): void => {
    if (!node) return;
    switch (node.kind) {
      case 'Fetch':
        counts.set(node.serviceName, (counts.get(node.serviceName) ?? 0) + 1);
        return;
      case 'Sequence':
      case 'Parallel':
        node.nodes.forEach(visit);
        return;
      case 'Flatten':
        visit(node.node);
        return;
      case 'Condition':
        visit(node.ifClause);
        visit(node.elseClause);
        return;
      default:
        throw new Error(`plan node ${node.kind} is not expected in this graph`);
    }
  };
  if (plan.node?.kind === 'Subscription') throw new Error('the facade sends no subscriptions');
  visit(plan.node);
  return counts;
}

const operations = facadeOperations();

/**
 * The operations that reach a subgraph twice, each time for every item at once. The planner
 * fetches each path separately: an issue's or merge request's author and assignee are two paths
 * into identity, a merge request's labels and milestone two into notes; a group's members sit
 * between the group and their users, both in identity.
 */
const PEOPLE = { identity: 2 };
const PEOPLE_AND_NOTES = { identity: 2, notes: 2 };
const FETCHED_TWICE: Record<string, Record<string, number>> = {
  ListIssues: PEOPLE,
  GetIssue: PEOPLE,
  CreateIssue: PEOPLE,
  UpdateIssue: PEOPLE,
  ViewerIssues: PEOPLE,
  MilestoneIssues: PEOPLE,
  ListMergeRequests: PEOPLE_AND_NOTES,
  GetMergeRequest: PEOPLE_AND_NOTES,
  CreateMergeRequest: PEOPLE_AND_NOTES,
  UpdateMergeRequest: PEOPLE_AND_NOTES,
  AcceptMergeRequest: PEOPLE_AND_NOTES,
  MergeRequestChanges: PEOPLE_AND_NOTES,
  ListGroupMembers: PEOPLE,
  GetGroupMember: PEOPLE,
};

describe('query plans of the facade operations', () => {
  it('finds the facade operations', () => {
    expect(operations.length).toBeGreaterThan(100);
    expect(operations.map((o) => o.name)).toEqual(
      expect.arrayContaining(['ListProjects', 'GetProject', 'ListMembers']),
    );
  });

  it.each(operations.map((o) => [o.name, o.document] as const))(
    '%s fetches each subgraph once, or as the table below says',
    (name, document) => {
      const plan = planner.buildQueryPlan(operationFromDocument(supergraph.schema, document, { validate: true }));
      const repeated = Object.fromEntries([...fetchesPerSubgraph(plan)].filter(([, count]) => count > 1));
      expect(repeated).toEqual(FETCHED_TWICE[name] ?? {});
    },
  );

  // Downloads authorize in the fetch that finds the project, then stream from the git worker.
  it('serves the project list, a project and the download authorization from the projects subgraph alone', () => {
    const byName = new Map(operations.map((o) => [o.name, o.document]));
    for (const name of ['ListProjects', 'GetProject', 'RepositoryDownload']) {
      const plan = planner.buildQueryPlan(
        operationFromDocument(supergraph.schema, byName.get(name)!, { validate: true }),
      );
      expect([...fetchesPerSubgraph(plan)]).toEqual([['projects', 1]]);
    }
  });

  // Repository reads by project id: the repository subgraph authorizes and answers alone.
  it('serves repository reads by id from the repository subgraph alone, and the same reads by path in two fetches', () => {
    const byName = new Map(operations.map((o) => [o.name, o.document]));
    const fetches = (name: string) => [
      ...fetchesPerSubgraph(
        planner.buildQueryPlan(operationFromDocument(supergraph.schema, byName.get(name)!, { validate: true })),
      ),
    ];
    for (const name of [
      'TreeAtRef',
      'CompareById',
      'GetCommitById',
      'CommitDiffById',
      'ListBranchesById',
      'GetBranchById',
      'ListTagsById',
      'ContributorsById',
      'ListCommitsById',
    ])
      expect([name, fetches(name)]).toEqual([name, [['repository', 1]]]);
    for (const name of [
      'Tree',
      'Compare',
      'GetCommit',
      'CommitDiff',
      'ListBranches',
      'GetBranch',
      'ListTags',
      'Contributors',
      'ListCommits',
    ])
      expect([name, fetches(name).sort()]).toEqual([
        name,
        [
          ['projects', 1],
          ['repository', 1],
        ],
      ]);
  });
});

// node(id:) answers from projects, which checked with the owner, with the keys it declares; the
// gateway then asks the owner once for the rest, whatever mix of types a nodes(ids:) holds.
describe('query plans of node lookups', () => {
  const plan = (query: string) =>
    fetchesPerSubgraph(
      planner.buildQueryPlan(operationFromDocument(supergraph.schema, parse(query), { validate: true })),
    );
  it("fetches a project from projects alone, and another owner's object from projects and that owner", () => {
    expect([...plan('{ node(id: "x") { ... on Project { id name } } }')]).toEqual([['projects', 1]]);
    expect([...plan('{ node(id: "x") { ... on Issue { id title } } }')].sort()).toEqual([
      ['notes', 1],
      ['projects', 1],
    ]);
    expect(
      [
        ...plan(
          '{ nodes(ids: ["x"]) { ... on Issue { title } ... on MergeRequest { title } ... on User { username } } }',
        ),
      ].sort(),
    ).toEqual([
      ['identity', 1],
      ['mergerequests', 1],
      ['notes', 1],
      ['projects', 1],
    ]);
  });
});
