import {
  arrayOf,
  itemsOf,
  objectOf,
  presentedShape,
  propertyOf,
  titled,
  type JsonSchema,
} from '../openapi/json-schema';

/**
 * GitLab v3's repository entities (lib/api/entities.rb): each shows a commit its own way. The
 * documents fetch every commit field under its v3 name; these pick and shape them.
 */
type Commit = {
  id: string;
  short_id: string;
  title: string;
  message: string;
  parent_ids: string[];
  tree_id: string;
  author_name: string;
  author_email: string;
  authored_date: string;
  committer_name: string;
  committer_email: string;
  committed_date: string;
};

/** RepoCommit inside a Branch (gitlab_git's hash of the commit). */
const branchCommit = (c: Commit) => ({
  id: c.id,
  message: c.message,
  parents: c.parent_ids.map((id) => ({ id })),
  tree: c.tree_id,
  author: { name: c.author_name, email: c.author_email },
  committer: { name: c.committer_name, email: c.committer_email },
  authored_date: c.authored_date,
  committed_date: c.committed_date,
});

export const presentBranch = (b: { name: string; protected: boolean; commit: Commit }) => ({
  name: b.name,
  commit: branchCommit(b.commit),
  protected: b.protected,
});

/** The commit of a RepoTag: flat author and committer fields. */
const tagCommit = (c: Commit) => ({
  id: c.id,
  message: c.message,
  parents_ids: c.parent_ids,
  authored_date: c.authored_date,
  author_name: c.author_name,
  author_email: c.author_email,
  committer_name: c.committer_name,
  committer_email: c.committer_email,
  committed_date: c.committed_date,
});

export const presentTag = (t: { name: string; message: string | null; commit: Commit }) => ({
  name: t.name,
  message: t.message,
  commit: tagCommit(t.commit),
});

/** RepoCommit (commit lists and compare): GitLab 7.14's created_at is the committed date. */
export const presentRepoCommit = (c: Commit) => ({
  id: c.id,
  short_id: c.short_id,
  title: c.title,
  author_name: c.author_name,
  author_email: c.author_email,
  created_at: c.committed_date,
  message: c.message,
});

/** RepoCommitDetail (a single commit): RepoCommit and its parents and both dates. */
export const presentCommitDetail = (c: Commit) => ({
  ...presentRepoCommit(c),
  parent_ids: c.parent_ids,
  committed_date: c.committed_date,
  authored_date: c.authored_date,
});

/** branchCommit's shape, from the selected commit's. */
function branchCommitSchema(commit: JsonSchema): JsonSchema {
  const field = (key: string) => propertyOf(commit, key);
  const person = (prefix: string) => objectOf({ name: field(`${prefix}_name`), email: field(`${prefix}_email`) });
  return objectOf({
    id: field('id'),
    message: field('message'),
    parents: arrayOf(objectOf({ id: itemsOf(field('parent_ids')) })),
    tree: field('tree_id'),
    author: person('author'),
    committer: person('committer'),
    authored_date: field('authored_date'),
    committed_date: field('committed_date'),
  });
}

/** The presenters' shapes, from the shapes the documents select. */
export const branchSchema = (selected: JsonSchema) =>
  titled(
    'Branch',
    objectOf({
      name: propertyOf(selected, 'name'),
      commit: branchCommitSchema(propertyOf(selected, 'commit')),
      protected: propertyOf(selected, 'protected'),
    }),
  );
export const tagSchema = (selected: JsonSchema) =>
  titled(
    'Tag',
    objectOf({
      name: propertyOf(selected, 'name'),
      message: propertyOf(selected, 'message'),
      commit: presentedShape(tagCommit, propertyOf(selected, 'commit')),
    }),
  );
export const repoCommitSchema = (selected: JsonSchema) =>
  titled('RepoCommit', presentedShape(presentRepoCommit, selected));
export const commitDetailSchema = (selected: JsonSchema) =>
  titled('RepoCommitDetail', presentedShape(presentCommitDetail, selected));
