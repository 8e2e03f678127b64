import { dataOf } from './gateway-client';
import { fromGraphQLError, fromUserErrors } from './v3-errors';

describe('the GraphQL error → v3 table', () => {
  it.each([
    ['NOT_FOUND', '404 Project Not Found', 404, '404 Project Not Found'],
    ['FORBIDDEN', '403 Forbidden', 403, '403 Forbidden'],
    ['UNAUTHENTICATED', '401 Unauthorized', 401, '401 Unauthorized'],
    ['BAD_REQUEST', '400 (Bad request) "name" not given', 400, '400 (Bad request) "name" not given'],
    ['CONFLICT', 'Email has already been taken', 409, 'Email has already been taken'],
    ['METHOD_NOT_ALLOWED', '405 Method Not Allowed', 405, '405 Method Not Allowed'],
    ['UNPROCESSABLE', 'Invalid access level', 422, 'Invalid access level'],
    ['SERVICE_UNAVAILABLE', '503 Service Unavailable', 503, '503 Service Unavailable'],
    ['INTERNAL_SERVER_ERROR', 'secret stack detail', 500, '500 Internal Server Error'],
    ['SOMETHING_NEW', 'whatever', 500, '500 Internal Server Error'],
    ['GRAPHQL_VALIDATION_FAILED', 'Int cannot represent', 400, '400 (Bad request)'],
  ])('%s → %i', (code, message, status, v3Message) => {
    const error = fromGraphQLError({ message, extensions: { code } });
    expect([error.status, error.body]).toEqual([status, { message: v3Message }]);
  });

  it('turns VALIDATION into a per-field message object', () => {
    const error = fromGraphQLError({
      message: 'Validation failed',
      extensions: { code: 'VALIDATION', fields: { name: ["can't be blank"] } },
    });
    expect([error.status, error.body]).toEqual([400, { message: { name: ["can't be blank"] } }]);
  });
});

describe('per-field messages beyond validation', () => {
  it.each([
    ['CONFLICT', 409, { name: ['has already been taken'] }],
    ['UNPROCESSABLE', 422, { access_level: ['is not included in the list'] }],
  ])('%s keeps its fields', (code, status, fields) => {
    const error = fromGraphQLError({ message: 'x', extensions: { code, fields } });
    expect([error.status, error.body]).toEqual([status, { message: fields }]);
  });
});

describe("a mutation payload's errors → v3", () => {
  it('answers attributed errors as GitLab’s validation hash, with the status of their code', () => {
    const error = fromUserErrors([
      { code: 'INVALID', v3Attribute: 'title', v3Message: "can't be blank" },
      { code: 'INVALID', v3Attribute: 'title', v3Message: 'is too short' },
      { code: 'INVALID', v3Attribute: 'path', v3Message: 'is invalid' },
    ]);
    expect(error.status).toBe(400);
    expect(error.body).toEqual({ message: { title: ["can't be blank", 'is too short'], path: ['is invalid'] } });
  });

  it.each([
    ['CONFLICT', 409, 'Label already exists'],
    ['UNPROCESSABLE', 422, 'Invalid url given'],
    ['NOT_ALLOWED', 405, '405 Method Not Allowed'],
    ['INVALID', 400, '400 (Bad request) "title" not given'],
  ])('answers %s as %i with its v3 message', (code, status, message) => {
    const error = fromUserErrors([{ code, v3Attribute: null, v3Message: message }]);
    expect(error.status).toBe(status);
    expect(error.body).toEqual({ message });
  });

  it('throws from dataOf when any payload in the answer holds errors, and passes clean payloads through', () => {
    const refused = {
      data: {
        createLabel: {
          label: null,
          errors: [{ code: 'CONFLICT', v3Attribute: null, v3Message: 'Label already exists' }],
        },
      },
    };
    expect(() => dataOf(refused)).toThrow(
      expect.objectContaining({ status: 409, body: { message: 'Label already exists' } }),
    );
    const done = { data: { createLabel: { label: { name: 'bug' }, errors: [] } } };
    expect(dataOf(done)).toEqual(done.data);
    expect(dataOf({ data: { project: null } })).toEqual({ project: null });
  });
});
