import { outgoingUrlAttributes } from './tracing-sdk';

describe('the URL an outgoing call leaves in its span', () => {
  it('keeps the parameter names and replaces every value, whatever the name', () => {
    expect(outgoingUrlAttributes('http://ci.example:8080', '/hook?token=s3cret&a=1&a=2&private_token=x')).toEqual({
      'url.full': 'http://ci.example:8080/hook?token=REDACTED&a=REDACTED&private_token=REDACTED',
      'url.query': '?token=REDACTED&a=REDACTED&private_token=REDACTED',
    });
  });

  it('leaves a URL without a query as it is, and gives nothing for one it cannot read', () => {
    expect(outgoingUrlAttributes('http://127.0.0.1:4000', '/graphql')).toEqual({
      'url.full': 'http://127.0.0.1:4000/graphql',
      'url.query': '',
    });
    expect(outgoingUrlAttributes('not a url', 'either')).toEqual({});
  });
});
