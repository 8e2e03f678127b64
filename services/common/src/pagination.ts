/** GitLab v3's page window: page from 1, per_page 20 by default and 100 at most. */
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

export interface PageWindow {
  page: number;
  perPage: number;
  offset: number;
}

/** Clamps what a caller asked for into a valid window (as kaminari did, never an error). */
export function pageWindow(page?: number | null, perPage?: number | null): PageWindow {
  const p = page && page > 0 ? Math.floor(page) : 1;
  const size = perPage && perPage > 0 ? Math.min(Math.floor(perPage), MAX_PER_PAGE) : DEFAULT_PER_PAGE;
  return { page: p, perPage: size, offset: (p - 1) * size };
}
