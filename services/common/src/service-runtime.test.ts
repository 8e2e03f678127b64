import type { Logger } from './logger';
import { createShutdownStages } from './service-runtime';

describe('createShutdownStages', () => {
  it('runs intake, then work, then the relay, then resources, each stage in the order it was given', async () => {
    const ran: string[] = [];
    const stages = createShutdownStages({ warn: () => {} } as unknown as Logger);
    const closer = (name: string) => async () => void ran.push(name);
    stages.add('resources', closer('membership client'));
    stages.add('work', closer('consumer'));
    stages.add('intake', closer('subgraph server'));
    stages.add('relay', closer('relay'));
    stages.add('resources', closer('queue'));
    stages.add('work', closer('change follower'));
    stages.add('intake', closer('worker'));

    await stages.run();

    expect(ran).toEqual([
      'subgraph server',
      'worker',
      'consumer',
      'change follower',
      'relay',
      'membership client',
      'queue',
    ]);
  });

  it('logs a closer that fails and still runs the rest', async () => {
    const warned: unknown[] = [];
    const ran: string[] = [];
    const stages = createShutdownStages({ warn: (fields: unknown) => warned.push(fields) } as unknown as Logger);
    const failure = new Error('already closed');
    stages.add('intake', async () => {
      throw failure;
    });
    stages.add('resources', async () => void ran.push('client'));

    await stages.run();

    expect(ran).toEqual(['client']);
    expect(warned).toEqual([{ err: failure, stage: 'intake' }]);
  });
});
