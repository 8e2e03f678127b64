import { projectScope } from '../conditional/version-scopes';
import {
  CreateBranchDocument,
  DeleteBranchDocument,
  CompareByIdDocument,
  CompareDocument,
  ContributorsDocument,
  CreateTagDocument,
  ContributorsByIdDocument,
  GetBranchByIdDocument,
  GetBranchDocument,
  ListBranchesByIdDocument,
  ListBranchesDocument,
  ListTagsByIdDocument,
  ListTagsDocument,
  ProtectBranchDocument,
  TreeAtRefDocument,
  TreeDocument,
  UnprotectBranchDocument,
} from '../generated/operations';
import {
  branchSchema,
  presentBranch,
  presentRepoCommit,
  presentTag,
  repoCommitSchema,
  tagSchema,
} from '../entities/repository';
import { mapItems, nullable, objectOf, propertyOf } from '../openapi/json-schema';
import { required, str } from '../param-docs';
import { payloadEntity } from '../gateway-client';
import type { Route } from '../route';
import { v3Error } from '../v3-errors';
import { projectIdOf, projectKey, projectRepository } from './project-key';
import { renderedTree } from './rendered-trees';

const BRANCH_NOT_FOUND = () => v3Error(404, '404 Branch Not Found');

export const repositoryRoutes: Route[] = [
  {
    method: 'get',
    path: '/projects/:id/repository/branches',
    versions: projectScope,
    summary: "Lists the repository's branches",
    response: (g) => mapItems(g.select(ListBranchesByIdDocument, 'repositoryReads.branches'), branchSchema),
    handle: async (p, gateway) => {
      const key = projectKey(p);
      const branches =
        key.id !== null
          ? (await gateway(ListBranchesByIdDocument, { projectId: key.id })).repositoryReads.branches
          : (await projectRepository(gateway(ListBranchesDocument, key))).branches;
      return { body: branches.map(presentBranch) };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/repository/branches/:branch',
    versions: projectScope,
    summary: 'A branch',
    response: (g) => branchSchema(g.select(GetBranchByIdDocument, 'repositoryReads.branch')),
    handle: async (p, gateway) => {
      const key = projectKey(p);
      const name = p.string('branch')!;
      const branch =
        key.id !== null
          ? (await gateway(GetBranchByIdDocument, { projectId: key.id, name })).repositoryReads.branch
          : (await projectRepository(gateway(GetBranchDocument, { ...key, name }))).branch;
      if (!branch) throw BRANCH_NOT_FOUND();
      return { body: presentBranch(branch) };
    },
  },
  {
    // GitLab 7.14 had no required attributes here: a missing name or ref failed like a bad one.
    method: 'post',
    path: '/projects/:id/repository/branches',
    summary: 'Creates a branch',
    params: { branch_name: str('Required.'), ref: str('Required: a branch, tag or commit.') },
    response: (g) => branchSchema(g.select(CreateBranchDocument, 'createBranch.branch')),
    handle: async (p, gateway) => {
      if (!p.string('branch_name')) throw v3Error(400, 'Branch name invalid');
      if (!p.string('ref')) throw v3Error(400, 'Invalid reference name');
      const { createBranch } = await gateway(CreateBranchDocument, {
        input: { projectId: await projectIdOf(p, gateway), name: p.string('branch_name')!, ref: p.string('ref')! },
      });
      return { body: presentBranch(payloadEntity(createBranch.branch)) };
    },
  },
  {
    method: 'delete',
    path: '/projects/:id/repository/branches/:branch',
    summary: 'Deletes a branch',
    response: (g) => objectOf({ branch_name: g.select(DeleteBranchDocument, 'deleteBranch.branchName') }),
    handle: async (p, gateway) => {
      const { deleteBranch } = await gateway(DeleteBranchDocument, {
        input: { projectId: await projectIdOf(p, gateway), name: p.string('branch')! },
      });
      return { body: { branch_name: payloadEntity(deleteBranch.branchName) } };
    },
  },
  {
    method: 'put',
    path: '/projects/:id/repository/branches/:branch/protect',
    summary: 'Protects a branch: only Masters may push to it',
    response: (g) => branchSchema(g.select(ProtectBranchDocument, 'protectBranch.branch')),
    handle: async (p, gateway) => {
      const { protectBranch } = await gateway(ProtectBranchDocument, {
        input: { projectId: await projectIdOf(p, gateway), branch: p.string('branch')! },
      });
      return { body: presentBranch(payloadEntity(protectBranch.branch)) };
    },
  },
  {
    method: 'put',
    path: '/projects/:id/repository/branches/:branch/unprotect',
    summary: 'Unprotects a branch',
    response: (g) => branchSchema(g.select(UnprotectBranchDocument, 'unprotectBranch.branch')),
    handle: async (p, gateway) => {
      const { unprotectBranch } = await gateway(UnprotectBranchDocument, {
        input: { projectId: await projectIdOf(p, gateway), branch: p.string('branch')! },
      });
      return { body: presentBranch(payloadEntity(unprotectBranch.branch)) };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/repository/tags',
    versions: projectScope,
    summary: "Lists the repository's tags, by name in reverse order",
    response: (g) => mapItems(g.select(ListTagsByIdDocument, 'repositoryReads.tags'), tagSchema),
    handle: async (p, gateway) => {
      const key = projectKey(p);
      const tags =
        key.id !== null
          ? (await gateway(ListTagsByIdDocument, { projectId: key.id })).repositoryReads.tags
          : (await projectRepository(gateway(ListTagsDocument, key))).tags;
      return { body: tags.map(presentTag) };
    },
  },
  {
    // The spec: 200 on success (not 201), 405 with the reason on any refusal.
    method: 'post',
    path: '/projects/:id/repository/tags',
    summary: 'Creates a tag (annotated when there is a message); 405 with the reason on a refusal',
    status: 200,
    params: {
      tag_name: required(str()),
      ref: required(str('A branch, tag or commit.')),
      message: str('Makes the tag annotated.'),
    },
    response: (g) => tagSchema(g.select(CreateTagDocument, 'createTag.tag')),
    handle: async (p, gateway) => {
      p.require('tag_name', 'ref');
      const { createTag } = await gateway(CreateTagDocument, {
        input: {
          projectId: await projectIdOf(p, gateway),
          tagName: p.string('tag_name')!,
          ref: p.string('ref')!,
          message: p.string('message') ?? null,
        },
      });
      return { body: presentTag(payloadEntity(createTag.tag)) };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/repository/tree',
    versions: projectScope,
    summary: 'Lists a folder of the repository',
    params: { ref_name: str('A branch, tag or commit; the default branch by default.'), path: str('The folder.') },
    response: (g) => g.select(TreeAtRefDocument, 'repositoryReads.tree'),
    handle: async (p, gateway, state) => {
      const key = projectKey(p);
      const [ref, path] = [p.string('ref_name') ?? null, p.string('path') ?? null];
      // Without a ref the project names the default branch; by id at a ref, the repository subgraph answers alone.
      if (key.id !== null && ref) {
        const variables = { projectId: key.id, ref, path };
        if (state?.rendered) return { json: await renderedTree(gateway, state.rendered, variables) };
        return { body: (await gateway(TreeAtRefDocument, variables)).repositoryReads.tree };
      }
      return { body: (await projectRepository(gateway(TreeDocument, { ...key, ref, path }))).tree };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/repository/compare',
    summary: 'Compares two branches, tags or commits',
    params: { from: required(str()), to: required(str()) },
    response: (g) => {
      const compare = g.select(CompareByIdDocument, 'repositoryReads.compare');
      return objectOf({
        commit: nullable(repoCommitSchema(propertyOf(compare, 'commit'))),
        commits: mapItems(propertyOf(compare, 'commits'), repoCommitSchema),
        diffs: propertyOf(compare, 'diffs'),
        compare_timeout: propertyOf(compare, 'compare_timeout'),
        compare_same_ref: propertyOf(compare, 'compare_same_ref'),
      });
    },
    handle: async (p, gateway) => {
      p.require('from', 'to');
      const key = projectKey(p);
      const refs = { from: p.string('from')!, to: p.string('to')! };
      const c =
        key.id !== null
          ? (await gateway(CompareByIdDocument, { projectId: key.id, ...refs })).repositoryReads.compare
          : (await projectRepository(gateway(CompareDocument, { ...key, ...refs }))).compare;
      return {
        body: {
          commit: c.commit ? presentRepoCommit(c.commit) : null,
          commits: c.commits.map(presentRepoCommit),
          diffs: c.diffs,
          compare_timeout: c.compare_timeout,
          compare_same_ref: c.compare_same_ref,
        },
      };
    },
  },
  {
    method: 'get',
    path: '/projects/:id/repository/contributors',
    summary: "The repository's contributors",
    response: (g) => g.select(ContributorsByIdDocument, 'repositoryReads.contributors'),
    handle: async (p, gateway) => {
      const key = projectKey(p);
      const contributors =
        key.id !== null
          ? (await gateway(ContributorsByIdDocument, { projectId: key.id })).repositoryReads.contributors
          : (await projectRepository(gateway(ContributorsDocument, key))).contributors;
      return { body: contributors };
    },
  },
];
