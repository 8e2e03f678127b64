import { Agent, getGlobalDispatcher, request, setGlobalDispatcher, type Dispatcher } from 'undici';
import { createConformanceChecker, type Exchange } from './openapi-conformance';
import { stackInfo } from './stack-info';

/**
 * Every answer an e2e test gets from the facade is checked against the facade's OpenAPI
 * description (GET /api/v3/openapi.json): each request made with undici (the api() helper among
 * them) or fetch goes through the observing dispatcher below. A test whose requests got an answer
 * the description does not allow fails after it ends, naming them. Requests through a dispatcher
 * of their own (the fuzz's) are not seen.
 */

/** The most of a JSON body kept for the check. */
const MAX_BODY = 64 * 1024 * 1024;

let checker: ReturnType<typeof createConformanceChecker> | undefined;
const problems: string[] = [];

function observe(exchange: Exchange) {
  if (!checker?.describes(exchange.path)) return;
  problems.push(...checker.check(exchange));
}

const isJson = (type: unknown) => /^application\/json\b/i.test(String(type ?? ''));

/** Hands the handler's events on and keeps the answer for the check once it has ended. */
const recorder: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) => {
  let status = 0;
  let headers: Record<string, string | string[] | undefined> = {};
  let chunks: Buffer[] | null = null;
  let size = 0;
  return dispatch(options, {
    onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
    onRequestUpgrade: (controller, statusCode, upgradeHeaders, socket) =>
      handler.onRequestUpgrade?.(controller, statusCode, upgradeHeaders, socket),
    onResponseStart: (controller, statusCode, responseHeaders, statusMessage) => {
      [status, headers] = [statusCode, responseHeaders as typeof headers];
      chunks = isJson(headers['content-type']) ? [] : null;
      return handler.onResponseStart?.(controller, statusCode, responseHeaders, statusMessage);
    },
    onResponseData: (controller, chunk) => {
      if (chunks && (size += chunk.length) <= MAX_BODY) chunks.push(chunk);
      return handler.onResponseData?.(controller, chunk);
    },
    onResponseEnd: (controller, trailers) => {
      observe({
        method: options.method,
        path: options.path,
        status,
        headers,
        body: chunks && size <= MAX_BODY ? Buffer.concat(chunks).toString('utf8') : undefined,
      });
      return handler.onResponseEnd?.(controller, trailers);
    },
    onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
  });
};

const observing = new Agent().compose(recorder);
const previous = getGlobalDispatcher();
setGlobalDispatcher(observing);
// Node's own fetch reads the global dispatcher of the realm it was made in, not of the test's
// sandbox: it is given the observing one with each request instead.
const nodeFetch = globalThis.fetch;
globalThis.fetch = (input, init) => nodeFetch(input, { dispatcher: observing, ...init } as RequestInit);

beforeAll(async () => {
  // Through a dispatcher of its own: the description is not checked against itself.
  const loader = new Agent();
  try {
    const answer = await request(`${stackInfo().restUrl}/openapi.json`, { dispatcher: loader });
    if (answer.statusCode !== 200) throw new Error(`GET /api/v3/openapi.json answered ${answer.statusCode}`);
    checker = createConformanceChecker((await answer.body.json()) as never);
  } finally {
    await loader.close();
  }
});

/** The problems found since the last call (the check's own test takes those it provoked). */
export const takeProblems = () => problems.splice(0);

const report = () => {
  const found = takeProblems();
  if (found.length) throw new Error(`answers the OpenAPI description does not allow:\n${found.join('\n')}`);
};
afterEach(report);
afterAll(async () => {
  globalThis.fetch = nodeFetch;
  setGlobalDispatcher(previous);
  await observing.close();
  report();
});
