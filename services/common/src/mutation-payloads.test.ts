import { buildSchema, type GraphQLObjectType, type GraphQLResolveInfo } from 'graphql';
import { conflict, forbidden, invalid, methodNotAllowed, missingAttribute, notFound, unprocessable } from './errors';
import { mutationPayload, userErrorsOf } from './mutation-payloads';

const schema = buildSchema(`
  type Query { ok: Boolean }
  input CreateThingInput { clientMutationId: String, title: String, sourceBranch: String }
  type Mutation { createThing(input: CreateThingInput!): Boolean }
`);
const info = {
  parentType: schema.getMutationType() as GraphQLObjectType,
  fieldName: 'createThing',
} as GraphQLResolveInfo;

describe('mutation payloads', () => {
  it('answers the entity and echoes clientMutationId when the command succeeds', async () => {
    await expect(mutationPayload('thing', { clientMutationId: 'c-1' }, info, () => ({ id: 1 }))).resolves.toEqual({
      clientMutationId: 'c-1',
      errors: [],
      thing: { id: 1 },
    });
    await expect(mutationPayload('thing', {}, info, async () => 7)).resolves.toMatchObject({ clientMutationId: null });
  });

  it('turns expected refusals into user errors with a null entity', async () => {
    const payload = await mutationPayload('thing', { clientMutationId: 'c-2' }, info, () => {
      throw conflict('Label already exists');
    });
    expect(payload).toEqual({
      clientMutationId: 'c-2',
      thing: null,
      errors: [
        {
          code: 'CONFLICT',
          path: null,
          message: 'Label already exists',
          v3Attribute: null,
          v3Message: 'Label already exists',
        },
      ],
    });
  });

  it('names the input field of each validation message, and keeps v3 wording for the facade', () => {
    const errors = userErrorsOf(
      invalid({ title: ["can't be blank", 'is too short'], source_branch: ['is invalid'], base: ['is odd'] }),
      info,
    );
    expect(errors).toEqual([
      {
        code: 'INVALID',
        path: ['input', 'title'],
        message: "Title can't be blank",
        v3Attribute: 'title',
        v3Message: "can't be blank",
      },
      {
        code: 'INVALID',
        path: ['input', 'title'],
        message: 'Title is too short',
        v3Attribute: 'title',
        v3Message: 'is too short',
      },
      {
        code: 'INVALID',
        path: ['input', 'sourceBranch'],
        message: 'Source branch is invalid',
        v3Attribute: 'source_branch',
        v3Message: 'is invalid',
      },
      { code: 'INVALID', path: null, message: 'Base is odd', v3Attribute: 'base', v3Message: 'is odd' },
    ]);
  });

  it('maps each expected code, and drops v3 status words from the public message', () => {
    expect(userErrorsOf(missingAttribute('title'))).toEqual([
      expect.objectContaining({
        code: 'INVALID',
        message: '"title" not given',
        v3Message: '400 (Bad request) "title" not given',
      }),
    ]);
    expect(userErrorsOf(unprocessable({ access_level: ['is not included in the list'] }))?.[0]).toMatchObject({
      code: 'UNPROCESSABLE',
      v3Attribute: 'access_level',
    });
    expect(userErrorsOf(methodNotAllowed('Branch cannot be merged'))?.[0]).toMatchObject({
      code: 'NOT_ALLOWED',
      message: 'Branch cannot be merged',
    });
  });

  it('leaves every other error a GraphQL error', async () => {
    expect(userErrorsOf(notFound('Project'))).toBeNull();
    expect(userErrorsOf(forbidden())).toBeNull();
    expect(userErrorsOf(new Error('boom'))).toBeNull();
    await expect(
      mutationPayload('thing', {}, info, () => {
        throw notFound('Project');
      }),
    ).rejects.toThrow('404 Project Not Found');
  });
});

describe('nested validation hashes', () => {
  it("leaves GitLab's nested hash (refused label names) a GraphQL error, whole", async () => {
    const nested = invalid({ labels: { 'a&b': { title: ['is invalid'] } } } as never);
    expect(userErrorsOf(nested, info)).toBeNull();
    await expect(
      mutationPayload('thing', {}, info, () => {
        throw nested;
      }),
    ).rejects.toMatchObject({
      extensions: { code: 'VALIDATION', fields: { labels: { 'a&b': { title: ['is invalid'] } } } },
    });
  });
});
