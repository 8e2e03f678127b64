import type { Sql } from './db';
import type { Logger } from './logger';
import { createOutboxNotifier } from './outbox';

const logger = { warn: () => {}, error: () => {}, info: () => {}, debug: () => {} } as unknown as Logger;

/** A Postgres that records the statements it is sent, with their parameters. */
function fakeSql() {
  const sent: Array<{ text: string; values: unknown[] }> = [];
  const sql = ((strings: TemplateStringsArray, ...values: unknown[]) => {
    sent.push({ text: strings.join('$'), values });
    return Promise.resolve([]);
  }) as unknown as Sql;
  return { sql, sent };
}

describe('createOutboxNotifier', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('notifies the first call at once and a burst of calls once more at the end of its gap', () => {
    const { sql, sent } = fakeSql();
    const notifier = createOutboxNotifier({ sql, service: 'hooks', gapMs: 20, logger });
    notifier.notify();
    expect(sent).toEqual([{ text: "select pg_notify($, '')", values: ['outbox_hooks'] }]);
    for (let i = 0; i < 50; i++) notifier.notify();
    jest.advanceTimersByTime(19);
    expect(sent).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(sent).toHaveLength(2);
    // A call within the gap after that notify waits for the gap's end; none was made after it.
    notifier.notify();
    expect(sent).toHaveLength(2);
    jest.advanceTimersByTime(20);
    expect(sent).toHaveLength(3);
    jest.advanceTimersByTime(1_000);
    expect(sent).toHaveLength(3);
  });

  it('notifies at once again after a quiet gap', () => {
    const { sql, sent } = fakeSql();
    const notifier = createOutboxNotifier({ sql, service: 'hooks', gapMs: 20, logger });
    notifier.notify();
    jest.advanceTimersByTime(25);
    notifier.notify();
    expect(sent).toHaveLength(2);
  });
});
