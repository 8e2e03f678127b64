import type { z } from 'zod';
import type { MergeRequestAttributes } from './contracts/mergerequests';
import type { projectFacts } from './contracts/projects';

/**
 * The JSON contracts of the internal (non-graph) endpoints, in one place so caller and owner share
 * one definition. Membership's authorization API is in access-client.ts.
 */

/** identity `POST /internal/users/lookup`: the users among `ids`, narrowed by `query` when given. */
export const USERS_LOOKUP_PATH = '/internal/users/lookup';
export interface UsersLookupRequest {
  ids: number[];
  /** Substring of username, name or email, case-insensitive. */
  query?: string;
}
export interface UserSummary {
  id: number;
  username: string;
  name: string;
  state: string;
  /** For hook payloads (`user_email`), which GitLab sent to project hooks. */
  email: string;
  avatarUrl: string | null;
}
export interface UsersLookupResponse {
  users: UserSummary[];
}

/**
 * identity `POST /internal/namespaces/lookup`: namespaces by id, or users' personal namespaces,
 * with everything a project response shows of them (projects keeps a copy, so project reads need
 * no identity round trip).
 */
export const NAMESPACES_LOOKUP_PATH = '/internal/namespaces/lookup';
export interface NamespacesLookupRequest {
  ids?: number[];
  ownerIds?: number[];
}
/** A user's public profile, as the graph's User shows it. */
export interface UserProfile {
  id: number;
  username: string;
  name: string;
  state: string;
  avatarUrl: string | null;
  webUrl: string;
  createdAt: string;
}
/** A namespace as the graph's Namespace shows it, with its owner's profile. */
export interface NamespaceSummary {
  id: number;
  path: string;
  name: string;
  description: string;
  ownerId: number | null;
  createdAt: string;
  updatedAt: string;
  owner: UserProfile | null;
}
export interface NamespacesLookupResponse {
  namespaces: NamespaceSummary[];
}

/**
 * membership `PUT /internal/projects/:id`: what projects tells membership about a project so it
 * can decide access. Applied only when `version` is newer than what membership holds, so the
 * direct call and the `project.*` event that carries the same facts may arrive in any order.
 */
export const projectFactsPath = (projectId: number) => `/internal/projects/${projectId}`;
export type ProjectFacts = z.output<typeof projectFacts>;

/** membership `POST /internal/member-projects`: the projects a user is a member of. */
export const MEMBER_PROJECTS_PATH = '/internal/member-projects';
export interface MemberProjectsRequest {
  userId: number;
}
export interface MemberProjectsResponse {
  projectIds: number[];
}

/**
 * What the facade tells the git worker about a git-over-HTTP request it has authorized, signed
 * with the shared secret (signClaims) in this header. The worker enforces the push rules with it.
 */
export const GIT_ACCESS_HEADER = 'x-hub-git-access';
export interface GitAccessClaims {
  projectId: number;
  /** The pusher; null for anonymous clones of public projects. */
  userId: number | null;
  username: string | null;
  /** May push to unprotected branches (Developer and above). */
  push: boolean;
  /** May push to protected branches (Master and above). Nobody force-pushes or deletes them. */
  pushProtected: boolean;
  protectedBranches: string[];
  /** HEAD of a repository the worker has to create on the spot. */
  defaultBranch: string;
}

/** repository `POST /internal/protected-branches`: a project's protected branch names. */
export const PROTECTED_BRANCHES_PATH = '/internal/protected-branches';
export interface ProtectedBranchesRequest {
  projectId: number;
}
export interface ProtectedBranchesResponse {
  names: string[];
}

/** mergerequests `POST /internal/merge-requests/find`: whether a merge request belongs to a project. */
export const MERGE_REQUEST_FIND_PATH = '/internal/merge-requests/find';
export interface MergeRequestFindRequest {
  projectId: number;
  id: number;
}
export interface MergeRequestFindResponse {
  found: boolean;
  /** GitLab's hook attributes of the merge request, when found. */
  attributes: MergeRequestAttributes | null;
}

/**
 * projects `POST /internal/projects/lookup`: what hook payloads and other non-graph callers show of
 * projects (GitLab's `repository` and `project` hook attributes). Unknown ids are left out.
 */
export const PROJECTS_LOOKUP_PATH = '/internal/projects/lookup';
export interface ProjectsLookupRequest {
  ids: number[];
}
export interface ProjectSummary {
  id: number;
  name: string;
  path: string;
  pathWithNamespace: string;
  namespaceName: string;
  nameWithNamespace: string;
  description: string | null;
  defaultBranch: string;
  visibilityLevel: number;
  webUrl: string;
  httpUrlToRepo: string;
  sshUrlToRepo: string;
}
export interface ProjectsLookupResponse {
  projects: ProjectSummary[];
}
