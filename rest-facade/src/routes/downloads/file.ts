import type { NextFunction, Request, Response } from 'express';
import type { Params } from '../../params';
import type { DownloadAuthorization } from './authorization';
import type { DownloadDeps } from './deps';
import { relay, watch, type Opener } from './grpc-relay';

/**
 * GitLab 7.14's GET repository/files: the file's metadata with its content in base64, inside
 * JSON, over the worker's gRPC stream (GetBlob). The JSON is written around the bytes as they
 * stream, base64-encoding them on the way (three bytes to four characters, a remainder of up to
 * two bytes carried to the next chunk), so a large file never sits whole in memory.
 */
export const fileHandler =
  (deps: DownloadDeps, { startBesideAuthorization }: DownloadAuthorization) =>
  async (req: Request, res: Response, next: NextFunction) => {
    /** A download streamed over gRPC (`opener` names the call), started beside the authorization. */
    const openDownload = <T>(opener: (p: Params) => Opener<T>) =>
      startBesideAuthorization(req, opener, (storage, projectId, open) => {
        const watched = watch(open(deps.git.on(storage), projectId));
        return { ...watched, cancel: () => watched.stream.cancel() };
      });
    try {
      let ref = '';
      let path = '';
      const call = await openDownload((p) => {
        p.require('file_path', 'ref');
        [ref, path] = [p.string('ref')!, p.string('file_path')!];
        return (git, projectId) => git.blob.GetBlob({ repository: { projectId }, ref, path });
      });
      let carry = Buffer.alloc(0);
      let tail = '';
      const encode = (data: Buffer) => {
        const bytes = Buffer.concat([carry, data]);
        const whole = bytes.length - (bytes.length % 3);
        carry = bytes.subarray(whole);
        return Buffer.from(bytes.subarray(0, whole).toString('base64'));
      };
      relay(
        call,
        req,
        res,
        next,
        { REF_NOT_FOUND: 'Commit', PATH_NOT_FOUND: 'File' },
        (first) => {
          const info = first.info!;
          res.status(200).type('application/json');
          const name = path.split('/').filter(Boolean).at(-1) ?? path;
          const head = JSON.stringify({
            file_name: name,
            file_path: path,
            size: Number(info.size),
            encoding: 'base64',
          });
          // Everything after the content is known now too; it is written when the bytes end.
          tail = `","ref":${JSON.stringify(ref)},"blob_id":${JSON.stringify(info.oid)},"commit_id":${JSON.stringify(info.commitId)}}`;
          return Buffer.from(`${head.slice(0, -1)},"content":"`);
        },
        (message) => (message.data ? encode(message.data) : null),
        {
          fields: { filepath: 'file_path', sha: 'ref' },
          onEnd: () => Buffer.concat([Buffer.from(carry.toString('base64')), Buffer.from(tail)]),
        },
      );
    } catch (error) {
      next(error);
    }
  };
