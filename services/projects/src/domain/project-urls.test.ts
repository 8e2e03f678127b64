import { humanNameOf, nameWithNamespaceOf } from './project-urls';

const project = { namespaceName: 'alice', name: 'Proj' };
const owner = {
  id: 7,
  username: 'alice',
  name: 'Alice Liddell',
  state: 'active',
  avatarUrl: null,
  webUrl: 'http://x/u/alice',
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('name_with_namespace', () => {
  it("shows a personal namespace by its owner's display name, as GitLab's Namespace#human_name did", () => {
    expect(nameWithNamespaceOf(project, { name: 'alice', owner })).toBe('Alice Liddell / Proj');
  });

  it("falls back to the namespace's name without an owner, and to the project's copy without a namespace", () => {
    expect(humanNameOf(project, { name: 'team', owner: null })).toBe('team');
    expect(humanNameOf(project, undefined)).toBe('alice');
  });
});
