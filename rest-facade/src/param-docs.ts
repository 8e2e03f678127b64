import type { ParamDoc } from './route';

/**
 * The words routes declare their parameters in, as `Params` reads them: `string`, `int`, `bool`,
 * `list`, `oneOf`; `required` for those `Params.require` demands.
 */
export const str = (description?: string): ParamDoc => ({ type: 'string', ...(description && { description }) });
export const int = (description?: string): ParamDoc => ({ type: 'integer', ...(description && { description }) });
export const bool = (description?: string): ParamDoc => ({ type: 'boolean', ...(description && { description }) });
export const list = (description?: string): ParamDoc => ({ type: 'list', ...(description && { description }) });
export const oneOf = (values: readonly string[], description?: string): ParamDoc => ({
  type: 'string',
  enum: values,
  ...(description && { description }),
});
export const required = (param: ParamDoc): ParamDoc => ({ ...param, required: true });

/** A list's page window (Params.window): out-of-range values are clamped, never refused. */
export const PAGE = {
  page: int('The page, from 1 (the default).'),
  per_page: int('Items per page: 20 by default, at most 100.'),
};

/** "id or NAMESPACE/NAME" of a project, the slash encoded as %2F. */
export const PROJECT_REF = str('The project: its id, or NAMESPACE/NAME with the slash encoded as %2F.');
