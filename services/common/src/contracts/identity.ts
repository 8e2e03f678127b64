// The contract of services/identity: the events it emits and its internal endpoints. Owned by identity.
import { z } from 'zod';
import { defineEvents, endpoint, payload } from './define';
import { actor, id, lookupIds, timestamp } from './shared';

const user = payload({
  user_id: id,
  username: z.string(),
  email: z.string(),
  name: z.string(),
  is_admin: z.boolean(),
  /** When the user was made (system hooks send it, for user_destroy too); null in events recorded before it was sent. */
  created_at: timestamp.nullable().default(null),
});

/** A group: a namespace of kind group. `owner_id` is the creator, made its first Owner. */
const group = payload({
  group_id: id,
  name: z.string(),
  path: z.string(),
  description: z.string(),
  owner_id: id.nullable(),
  owner_username: z.string().nullable(),
  owner_email: z.string().nullable(),
  owner_name: z.string().nullable(),
  actor_id: id.nullable(),
  actor_username: z.string().nullable(),
});

/** An SSH key: a user's (username is the owner's) or a deploy key (no user). */
const sshKey = payload({
  key_id: id,
  kind: z.enum(['user', 'deploy']),
  title: z.string(),
  key: z.string(),
  fingerprint: z.string(),
  user_id: id.nullable(),
  username: z.string().nullable(),
  created_at: timestamp,
});

export const identityEvents = defineEvents('identity', {
  'user.created': user,
  'user.updated': user,
  'user.deleted': user,
  'user.blocked': user,
  'user.unblocked': user,
  /** The private token changed: cached principals of the user must go. */
  'user.private_token_reset': user,
  /** Membership makes the owner an Owner member from this (and from a direct call at creation). */
  'group.created': group,
  'group.updated': group,
  /** Projects removes the group's projects; membership its members. */
  'group.deleted': group,
  /** GitLab's key_create and key_destroy system hook events; a deploy key is destroyed when no project has it. */
  'key.created': sshKey,
  'key.deleted': sshKey,
  /** An admin changed the application settings: every replica drops its cached copy (settings-client). */
  'settings.updated': payload({ ...actor, updated_at: timestamp }),
});

export const userSummary = z.object({
  id,
  username: z.string(),
  name: z.string(),
  state: z.string(),
  /** For hook payloads (`user_email`), which GitLab sent to project hooks. */
  email: z.string(),
  avatarUrl: z.string().nullable(),
  /** Whom GitLab's visibility rules let use restricted levels (a project an admin creates for the user). */
  isAdmin: z.boolean().optional(),
});
export type UserSummary = z.output<typeof userSummary>;

/** The users among `ids`, narrowed by `query` (username, name or email, case-insensitive) when given. */
export const usersLookup = endpoint(
  '/internal/users/lookup',
  z.object({ ids: lookupIds, query: z.string().optional() }),
  z.object({ users: z.array(userSummary) }),
);

/** A user's public profile, as the graph's User shows it. */
export const userProfile = z.object({
  id,
  username: z.string(),
  name: z.string(),
  state: z.string(),
  avatarUrl: z.string().nullable(),
  webUrl: z.string(),
  createdAt: timestamp,
});
export type UserProfile = z.output<typeof userProfile>;

/** A namespace as the graph's Namespace shows it, with its owner's profile. */
export const namespaceSummary = z.object({
  id,
  path: z.string(),
  name: z.string(),
  kind: z.enum(['user', 'group']).default('user'),
  description: z.string(),
  ownerId: id.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  owner: userProfile.nullable(),
});
export type NamespaceSummary = z.output<typeof namespaceSummary>;

/**
 * Namespaces by id, or users' personal namespaces, with everything a project response shows of
 * them (projects keeps a copy, so project reads need no identity round trip).
 */
export const namespacesLookup = endpoint(
  '/internal/namespaces/lookup',
  z.object({ ids: lookupIds.optional(), ownerIds: lookupIds.optional() }),
  z.object({ namespaces: z.array(namespaceSummary) }),
);

/** The part of a user the gateway builds a principal from. */
const principalUser = z.object({ id, username: z.string(), isAdmin: z.boolean() });

/**
 * Credentials → user, for the gateway only (kept off the public graph). The sudo target is looked
 * up in the same round trip; the gateway applies the sudo rules.
 */
export const principalLookup = endpoint(
  '/internal/principal',
  z.object({
    privateToken: z.string().optional(),
    accessToken: z.string().optional(),
    bearer: z.string().optional(),
    /** HTTP basic: a login (username or email) with a password or the user's private token. */
    basic: z.object({ login: z.string(), secret: z.string() }).optional(),
    sudo: z.string().optional(),
  }),
  z.object({
    /** The active user behind the credentials; null when they match nobody. */
    user: principalUser.nullable(),
    /** Present when `sudo` was asked: the target, or null when no user has that id or username. */
    sudo: principalUser.nullable().optional(),
  }),
);

/**
 * The application settings (GitLab's ApplicationSetting, one row) that other services apply: only
 * those, so a field is added here when a service starts reading it (identity applies
 * default_projects_limit itself; the rest only the admin routes show).
 */
export const applicationSettings = z.object({
  /** 0 no protection, 1 protected but developers may push, 2 fully protected (masters only). */
  defaultBranchProtection: z.number().int(),
  /** Levels only admins may give projects and snippets. */
  restrictedVisibilityLevels: z.array(z.number().int()),
  /** The level of a project created without one. */
  defaultProjectVisibility: z.number().int(),
});
export type ApplicationSettings = z.output<typeof applicationSettings>;

/** The current application settings (the settings client caches the answer until `settings.updated`). */
export const applicationSettingsLookup = endpoint(
  '/internal/application-settings',
  z.object({}),
  z.object({ settings: applicationSettings }),
);
