/**
 * Labels of the figures the capacity model (capacity.ts) reads from results.json beyond the
 * report's own targets: the scenarios record under them, the model looks them up.
 */
/** Postgres's growth over the last bulk copy of projects (figures: { projects, bytes }). */
export const PROJECT_BYTES_LABEL = 'postgres growth per copied project';
/** Issues created one after another, one event each (processes, counters; figures.webhooks.events). */
export const WRITES_LABEL = 'webhooks: issues created (one event each)';
/** Pushes of one small commit each (processes, counters; figures.webhooks.pushes). */
export const PUSHES_LABEL = 'webhooks: pushes of one small commit';
/** The first push of the generated repository (processes; figures.repository.packBytes). */
export const FIRST_PUSH_LABEL = 'push of the generated repository';
