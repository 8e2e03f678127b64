import { pageWindow, type PageWindow } from '@hub/common';
import { v3Error } from './v3-errors';

// GitLab 7.14's parse_boolean: only true, 1, t, true and on are true. Anything else was false,
// 'yes' and 'y' included (they are read as false here too, not refused).
const TRUE = new Set(['true', 't', '1', 'on']);
const FALSE = new Set(['false', 'f', '0', 'off', 'no', 'n', 'yes', 'y']);
const MAX_INT32 = 2 ** 31 - 1;

/** Credential parameters: read by the credentials module, never passed on as data. */
export const CREDENTIAL_PARAMS = ['private_token', 'access_token', 'sudo'];

/**
 * The longest value a list's Link URLs repeat. Each response carries four such URLs, and Node's
 * HTTP clients refuse answers whose headers pass 16 KiB in all; no name, path or label a filter
 * could match is this long.
 */
export const MAX_LINKED_VALUE = 1024;

/**
 * A request's parameters from the path, the query string and a form or JSON body (body wins over
 * query, path over both, as in Grape). Values may be strings or JSON numbers and booleans; empty
 * values count as absent; a value of the wrong type or shape (an array or an object, e.g.
 * `?archived[]=x` or a repeated key, where one value is expected) is a 400 naming the field.
 *
 * It also remembers what the route read, normalised (booleans as true/false, numbers in decimal),
 * for the Link headers of lists: those repeat the parameters the route knows, nothing else.
 */
export class Params {
  private readonly values: Record<string, unknown>;
  private readonly pathNames: Set<string>;
  private readonly known = new Map<string, string>();

  constructor(query: unknown, body: unknown, path: Record<string, string>) {
    this.values = { ...asRecord(query), ...asRecord(body), ...path };
    this.pathNames = new Set(Object.keys(path));
  }

  private raw(name: string): unknown {
    const value = this.values[name];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'object') throw invalid(name);
    return value;
  }

  /** Keeps a value the route read, for the Link headers (path parameters are in the path already). */
  private remember<T extends string | number | boolean>(name: string, value: T): T {
    if (!this.pathNames.has(name)) this.known.set(name, String(value));
    return value;
  }

  /**
   * The parameters a list's Link URLs carry besides page and per_page: those the route read, in
   * their normalised form. A value too long to repeat four times in one header is a 400.
   */
  linkParams(): Array<[string, string]> {
    const entries = [...this.known].filter(([name]) => name !== 'page' && name !== 'per_page');
    for (const [name, value] of entries) {
      if (value.length > MAX_LINKED_VALUE)
        throw v3Error(400, { [name]: [`is too long (maximum is ${MAX_LINKED_VALUE} characters)`] });
    }
    return entries;
  }

  has(name: string): boolean {
    return this.raw(name) !== undefined;
  }

  /** Sent, but empty: for the few fields where that means "clear it". */
  sentEmpty(name: string): boolean {
    return this.values[name] === '';
  }

  string(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const text = String(value);
    // No stored text can hold a NUL byte; say which field carried one.
    if (text.includes('\u0000')) throw invalid(name);
    return this.remember(name, text);
  }

  int(name: string): number | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const n =
      typeof value === 'number'
        ? value
        : typeof value === 'string' && /^-?\d+$/.test(value.trim())
          ? Number(value)
          : NaN;
    if (!Number.isInteger(n) || Math.abs(n) > MAX_INT32) throw invalid(name);
    return this.remember(name, n);
  }

  bool(name: string): boolean | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    if (typeof value === 'boolean') return this.remember(name, value);
    const text = String(value).toLowerCase();
    if (TRUE.has(text)) return this.remember(name, true);
    if (FALSE.has(text)) return this.remember(name, false);
    throw invalid(name);
  }

  /**
   * An id from the path: anything but a positive 32-bit integer names no record: 404 as GitLab
   * 7.14's `find` answered (ActiveRecord::RecordNotFound, lower-case f).
   */
  id(name: string): number {
    const value = this.raw(name);
    const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > MAX_INT32) throw v3Error(404, '404 Not found');
    return n;
  }

  /** A value from a closed set (default `fallback`); any other value is a 400 naming the parameter. */
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.string(name) ?? fallback;
    if (!(allowed as readonly string[]).includes(value))
      throw v3Error(400, { [name]: ['does not have a valid value'] });
    return value as T;
  }

  /**
   * A list (JSON array, or a form's `name[]=a&name[]=b`); one value alone is a list of one, an
   * empty value an empty list. Items that are not strings or numbers are a 400 naming the field.
   */
  list(name: string): string[] | undefined {
    const value = this.values[name];
    if (value === undefined || value === null) return undefined;
    const items = Array.isArray(value) ? value : value === '' ? [] : [value];
    if (items.some((item) => (typeof item !== 'string' && typeof item !== 'number') || String(item).includes('\u0000')))
      throw invalid(name);
    return items.map(String);
  }

  /** page and per_page, clamped like kaminari: never an error. */
  window(): PageWindow {
    const safe = (name: string) => {
      try {
        return this.int(name);
      } catch {
        return undefined;
      }
    };
    return pageWindow(safe('page'), safe('per_page'));
  }

  /**
   * GitLab's `required_attributes!`: the first one missing gives 400 '"x" not given'. Missing is
   * Rails' `blank?`, so a value of only whitespace is missing too.
   */
  require(...names: string[]): void {
    for (const name of names) {
      const value = this.has(name) ? this.values[name] : undefined;
      if (value === undefined || (typeof value === 'string' && /^\s*$/.test(value)))
        throw v3Error(400, `400 (Bad request) "${name}" not given`);
    }
  }
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const invalid = (name: string) => v3Error(400, { [name]: ['is invalid'] });

/** Drops undefined members, so GraphQL inputs carry only what the client sent. */
export function defined<T extends Record<string, unknown>>(object: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as never;
}
