import { freePort } from './system';

describe('free ports', () => {
  it('never hands out the same port twice, though each probe frees its port at once', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});
