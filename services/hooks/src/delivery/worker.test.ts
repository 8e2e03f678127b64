import { retryDelay } from './worker';

describe('retry delays', () => {
  it('double with each attempt, jittered within the upper half', () => {
    const delay = retryDelay(1000);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const ceiling = 1000 * 2 ** (attempt - 1);
      for (let i = 0; i < 50; i++) {
        const ms = delay(attempt);
        expect(ms).toBeGreaterThanOrEqual(ceiling / 2);
        expect(ms).toBeLessThanOrEqual(ceiling);
      }
    }
  });
});
