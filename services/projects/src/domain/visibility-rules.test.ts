import type { ApplicationSettings, InternalClient, Principal, SettingsClient } from '@hub/common';
import { createVisibilityRules } from './visibility-rules';

const settings = {
  get: async () =>
    ({
      defaultBranchProtection: 2,
      restrictedVisibilityLevels: [20],
      defaultProjectVisibility: 0,
    }) as ApplicationSettings,
  invalidate: () => {},
} as SettingsClient;
const principal = (isAdmin: boolean): Principal => ({
  userId: isAdmin ? 1 : 2,
  username: isAdmin ? 'root' : 'user',
  isAdmin,
  impersonatorId: null,
});
/** Identity's users lookup: user 5 is an admin, user 6 is not. */
const identity = {
  call: async (_contract: unknown, { ids }: { ids: number[] }) => ({
    users: ids.map((id) => ({
      id,
      username: `u${id}`,
      name: `U${id}`,
      state: 'active',
      email: `u${id}@x`,
      avatarUrl: null,
      isAdmin: id === 5,
    })),
  }),
} as unknown as InternalClient;
const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { extensions?: { fields?: unknown } }) => error.extensions?.fields,
  );
const RESTRICTED = { visibility_level: ['Public visibility has been restricted by your GitLab administrator'] };

describe('restricted levels on a new project', () => {
  const rules = createVisibilityRules({ settings });

  it('checks the caller when the project is the caller’s own', async () => {
    expect(await refusalOf(rules.forNewProject(principal(false), 20))).toEqual(RESTRICTED);
    expect(await rules.forNewProject(principal(true), 20)).toBe(20);
    expect(await rules.forNewProject(principal(false), 10)).toBe(10);
  });

  it('checks the user an admin creates the project for, as GitLab’s CreateService ran as them', async () => {
    expect(await refusalOf(rules.forNewProject(principal(true), 20, { id: 6, identity }))).toEqual(RESTRICTED);
    expect(await rules.forNewProject(principal(true), 20, { id: 5, identity })).toBe(20);
    expect(await rules.forNewProject(principal(true), undefined, { id: 6, identity })).toBe(0);
  });
});
