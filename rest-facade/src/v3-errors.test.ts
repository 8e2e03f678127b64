import { fromGraphQLError } from './v3-errors';

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
