import { Metadata, status } from '@grpc/grpc-js';
import { DomainError } from '@hub/common';
import { gitDomainError } from './errors';
import { encodeErrorDetail, ERROR_DETAIL_TRAILER } from './load';

/** A failed call as grpc-js hands it over: a status code, and the worker's ErrorDetail when it sent one. */
const failedCall = (code: status, kind?: string) => {
  const metadata = new Metadata();
  if (kind) metadata.set(ERROR_DETAIL_TRAILER, encodeErrorDetail({ kind, message: kind, field: 'ref' }));
  return Object.assign(new Error(`${code}`), { code, metadata });
};

/** The code and message a failure becomes, or 'unexpected' when it stays as it is (a logged 500). */
const answerTo = (error: Error) => {
  const mapped = gitDomainError(error, { REF_NOT_FOUND: 'Branch' });
  return mapped instanceof DomainError ? [mapped.code, mapped.message] : ['unexpected', mapped === error];
};

describe('gitDomainError', () => {
  it.each<[string, Error, unknown[]]>([
    [
      'a ref the worker did not find',
      failedCall(status.NOT_FOUND, 'REF_NOT_FOUND'),
      ['NOT_FOUND', '404 Branch Not Found'],
    ],
    ['a worker down', failedCall(status.UNAVAILABLE), ['SERVICE_UNAVAILABLE', '503 Service Unavailable']],
    [
      'a worker that took too long',
      failedCall(status.DEADLINE_EXCEEDED),
      ['SERVICE_UNAVAILABLE', '503 Service Unavailable'],
    ],
    // The worker refusing the caller's signed credential or its name is the deployment's fault.
    [
      "a worker refusing the caller's signature",
      failedCall(status.UNAUTHENTICATED),
      ['SERVICE_UNAVAILABLE', '503 Service Unavailable'],
    ],
    [
      'a worker refusing the caller',
      failedCall(status.PERMISSION_DENIED),
      ['SERVICE_UNAVAILABLE', '503 Service Unavailable'],
    ],
    ['a failure of the worker itself', failedCall(status.INTERNAL), ['unexpected', true]],
  ])('answers %s', (_name, error, expected) => {
    expect(answerTo(error)).toEqual(expected);
  });
});
