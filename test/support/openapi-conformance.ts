import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** Statuses an answer may have whatever its path: the 404 of no route and what comes before routing. */
const BEFORE_ROUTING = new Set([400, 404, 408, 413, 429, 431]);

/** One answer the facade gave, as a client saw it. */
export interface Exchange {
  method: string;
  /** The request's path and query, as sent. */
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text; undefined when it was not read (not JSON). */
  body?: string;
}

interface Operation {
  responses: Record<string, Response>;
}
interface Response {
  $ref?: string;
  headers?: Record<string, { $ref?: string; required?: boolean }>;
  content?: Record<string, { schema?: unknown }>;
}
interface Document {
  paths: Record<string, Record<string, unknown> & { servers?: Array<{ url: string }> }>;
  components: { responses: Record<string, Response>; headers: Record<string, { required?: boolean }> };
}

const API_PREFIX = '/api/v3';
const DOCUMENT_ID = 'https://v3hub.invalid/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete'];

interface Template {
  template: string;
  regex: RegExp;
  /** Literal characters: where several templates match, the most specific wins, as express's order has it. */
  weight: number;
  root: boolean;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function templatesOf(document: Document): Template[] {
  return Object.entries(document.paths).map(([template, item]) => {
    const parts = template.split(/\{[^}]+\}/);
    // Express matches paths case-insensitively and with an optional trailing slash.
    const regex = new RegExp(`^${parts.map(escape).join('([^/]+)')}/?$`, 'i');
    return { template, regex, weight: parts.join('').length, root: Boolean(item.servers) };
  });
}

const underApi = (path: string) => path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

/** The path a request target names, as a client sends it: dot segments resolved (`a/b/../c` is `a/c`). */
const pathOf = (target: string) => new URL(target, 'http://host').pathname;

/**
 * Checks answers against the OpenAPI description: the status must be one the operation lists,
 * the content type one it names for that status, a JSON body valid against its schema, and the
 * required headers there. A path no operation has must be the facade's 404.
 */
export function createConformanceChecker(document: Document) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, DOCUMENT_ID);
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = validators.get(pointer);
    if (!validate) validators.set(pointer, (validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` })));
    return validate;
  };
  const templates = templatesOf(document).sort((a, b) => b.weight - a.weight);
  const pointerPart = (text: string) => encodeURIComponent(text.replace(/~/g, '~0').replace(/\//g, '~1'));

  /** The operation's template for a path, trying its .json-less form and a branch name with slashes. */
  function templateFor(path: string, root: boolean): Template | undefined {
    const candidates = [path, path.replace(/\.json$/i, '')];
    for (const candidate of candidates) {
      const found = templates.find((t) => t.root === root && t.regex.test(candidate));
      if (found) return found;
    }
    // GitLab took branch names with slashes unencoded: the facade encodes them before routing.
    const branch = /^(\/projects\/[^/]+\/repository\/branches\/)(.+?)(\/protect|\/unprotect)?$/.exec(path);
    if (branch) return templateFor(`${branch[1]}${encodeURIComponent(branch[2])}${branch[3] ?? ''}`, root);
    return undefined;
  }

  /** Whether the description speaks for a path: /api/v3's, and the routes at the root it names (git's and health's are not). */
  const describes = (target: string) => {
    const bare = pathOf(target);
    return underApi(bare) || templates.some((t) => t.root && t.regex.test(bare));
  };

  function check(exchange: Exchange): string[] {
    const bare = pathOf(exchange.path);
    const root = !underApi(bare);
    const path = root ? bare : bare.slice(API_PREFIX.length);
    const method = exchange.method.toLowerCase() === 'head' ? 'get' : exchange.method.toLowerCase();
    const template = templateFor(path, root);
    const operation = template && (document.paths[template.template][method] as Operation | undefined);
    const name = `${exchange.method} ${exchange.path} → ${exchange.status}`;
    if (!operation || !METHODS.includes(method)) {
      // No route: the facade's own 404, or what is answered before any route is chosen (the HTTP
      // server's 408 and 431; the API's body parsers and rate limits, which run for every path).
      if (!BEFORE_ROUTING.has(exchange.status)) return [`${name}: no operation describes ${exchange.method} ${path}`];
      return checkBody(name, exchange, '/components/schemas/Error', 'application/json');
    }
    let response = operation.responses[String(exchange.status)];
    if (!response) return [`${name}: the description lists no ${exchange.status} for ${method} ${template.template}`];
    let pointer = `/paths/${pointerPart(template.template)}/${method}/responses/${exchange.status}`;
    if (response.$ref) {
      pointer = response.$ref.slice(1);
      response = document.components.responses[response.$ref.split('/').pop()!];
    }
    const problems: string[] = [];
    for (const [header, spec] of Object.entries(response.headers ?? {})) {
      const required = spec.$ref ? document.components.headers[spec.$ref.split('/').pop()!].required : spec.required;
      if (required && exchange.headers[header.toLowerCase()] === undefined)
        problems.push(`${name}: no ${header} header`);
    }
    const content = response.content ?? {};
    const noBody = exchange.status === 304 || exchange.method.toUpperCase() === 'HEAD';
    if (noBody || Object.keys(content).length === 0) return problems;
    const type = String(exchange.headers['content-type'] ?? '');
    const essence = (media: string) => media.split(';')[0].trim().toLowerCase();
    const media = Object.keys(content).find((candidate) => essence(candidate) === essence(type));
    if (media === undefined)
      return [...problems, `${name}: content type "${type}", not ${Object.keys(content).join(' or ')}`];
    if (essence(media) !== 'application/json' || !content[media].schema) return problems;
    return [...problems, ...checkBody(name, exchange, `${pointer}/content/${pointerPart(media)}/schema`, media)];
  }

  function checkBody(name: string, exchange: Exchange, pointer: string, media: string): string[] {
    if (
      !String(exchange.headers['content-type'] ?? '')
        .toLowerCase()
        .startsWith(media)
    )
      return [`${name}: content type "${exchange.headers['content-type']}", not ${media}`];
    if (exchange.body === undefined) return [];
    let value: unknown;
    try {
      value = JSON.parse(exchange.body);
    } catch {
      return [`${name}: the body is not JSON: ${exchange.body.slice(0, 200)}`];
    }
    const validate = validatorAt(pointer);
    if (validate(value)) return [];
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((error) => `${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`);
    return [
      `${name}: the body does not match the description:\n  ${errors.join('\n  ')}\n  body: ${exchange.body.slice(0, 500)}`,
    ];
  }

  return { check, describes };
}
