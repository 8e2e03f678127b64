import type { RequestHandler } from 'express';

const BRANCH_PATH = /^(\/projects\/[^/]+\/repository\/branches\/)(.+?)(\/protect|\/unprotect)?$/;

/**
 * GitLab 7.14 took any characters in a branch name on its branch routes (`requirements: { branch:
 * /.*\/ }`), so clients send `branches/feature/x` unencoded. The slashes inside the name are
 * encoded here, before routing, so the routes see one `:branch` parameter. Only PUT routes end in
 * /protect or /unprotect; on GET and DELETE those words belong to the name.
 */
export const encodeBranchNames: RequestHandler = (req, _res, next) => {
  const [path, query] = req.url.split('?', 2);
  const match = BRANCH_PATH.exec(path);
  if (match) {
    const [, prefix, name, action] = match;
    const [branch, suffix] = req.method === 'PUT' ? [name, action ?? ''] : [name + (action ?? ''), ''];
    if (branch.includes('/'))
      req.url = `${prefix}${branch.split('/').join('%2F')}${suffix}${query === undefined ? '' : `?${query}`}`;
  }
  next();
};
