import type { NextFunction, Request, Response } from 'express';
import { v3Error } from '../../v3-errors';
import type { DownloadAuthorization } from './authorization';
import { ARCHIVE_TYPES } from './docs';
import type { WorkerDownloads } from './worker-answer';

/** An archive of the repository at a commit, in the format the route names (tar.gz by default). */
export const archiveHandler =
  ({ authorizeDownload }: DownloadAuthorization, { askWorker, relayAnswer }: WorkerDownloads) =>
  async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { p, project } = await authorizeDownload(req);
      const format = (req.params as Record<string, string>).format ?? 'tar.gz';
      const type = ARCHIVE_TYPES[format];
      if (!type) throw v3Error(404, '404 Not Found');
      const sha = p.string('sha');
      const name = `${project.path}-${sha ?? project.defaultBranch}`.replace(/[^A-Za-z0-9._-]/g, '-');
      // The default branch by its full name: a tag of the same name must not stand in for it.
      const ref = sha ?? `refs/heads/${project.defaultBranch}`;
      const query = new URLSearchParams({ ref, format, prefix: name }).toString();
      // GitLab 7.14's archive route answered any failure to build the archive with not_found!('File').
      await relayAnswer(
        askWorker('archives')(project.repositoryStorage, project.id, query),
        req,
        res,
        { REF_NOT_FOUND: 'File' },
        () => {
          res.status(200).setHeader('Content-Type', type);
          res.setHeader('Content-Disposition', `attachment; filename="${name}.${format}"`);
        },
      );
    } catch (error) {
      next(error);
    }
  };
