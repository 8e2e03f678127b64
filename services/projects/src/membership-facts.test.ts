import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express from 'express';
import {
  applyProjectFacts,
  createInternalClient,
  createInternalRouter,
  createLogger,
  serveEndpoint,
  type ProjectFacts,
} from '@hub/common';
import { testProjectFacts } from '@hub/common/testing';
import { createFactsPush } from './membership-facts';

const secret = 'test-secret';
const logger = createLogger('facts-push-test', 'silent');
const facts = (projectId: number, version: number): ProjectFacts =>
  testProjectFacts(projectId, 1, { version, namespaceId: 1 });

/** Facts that mark a retry round: refused once, so they are queued behind anything still unsent. */
const MARKER = 99;

/**
 * A membership stand-in over real HTTP that records the facts it takes; down until `start`. It
 * refuses the marker's first facts (a 500), so they go the retry rounds' way.
 */
function membershipAt(port: number) {
  const received: Array<[number, number]> = [];
  let markerRefused = false;
  const router = createInternalRouter(secret);
  serveEndpoint(router, applyProjectFacts, logger, async (f) => {
    if (f.projectId === MARKER && !markerRefused) {
      markerRefused = true;
      throw new Error('refused, to queue the marker');
    }
    received.push([f.projectId, f.version]);
    return { applied: true };
  });
  const app = express().use(router);
  let server: Server | null = null;
  return {
    received,
    start: () => new Promise<void>((resolve) => (server = createServer(app).listen(port, '127.0.0.1', resolve))),
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
}

/** A port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const until = async (check: () => boolean, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('createFactsPush', () => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  async function setUp(options: { up: boolean; retryForMs?: number }) {
    const port = await freePort();
    const membership = membershipAt(port);
    stops.push(membership.stop);
    if (options.up) await membership.start();
    const applied: number[] = [];
    // What the push logs is how it tells of the rounds it tried and the facts it gave up on.
    const logged: string[] = [];
    const watched = createLogger('facts-push-test', 'silent');
    watched.debug = ((_fields: unknown, message: string) => void logged.push(message)) as typeof watched.debug;
    watched.warn = ((_fields: unknown, message: string) => void logged.push(message)) as typeof watched.warn;
    const push = createFactsPush({
      membership: createInternalClient({ baseUrl: `http://127.0.0.1:${port}`, secret, caller: 'projects' }),
      logger: watched,
      applied: (id) => void applied.push(id),
      retryEveryMs: 20,
      retryForMs: options.retryForMs ?? 10_000,
    });
    /**
     * Resolves once a retry round has gone past whatever was unsent before it: rounds send in the
     * order the facts were queued, and the marker's are queued now.
     */
    const pastARetryRound = async () => {
      await push.push(facts(MARKER, 1));
      await until(() => membership.received.some(([id]) => id === MARKER));
    };
    /** What membership took, the marker's facts aside. */
    const told = () => membership.received.filter(([id]) => id !== MARKER);
    return { membership, push, applied, logged, pastARetryRound, told };
  }

  it('tells membership once when it answers', async () => {
    const { membership, push, applied, pastARetryRound, told } = await setUp({ up: true });
    await push.push(facts(7, 1));
    expect(membership.received).toEqual([[7, 1]]);
    expect(applied).toEqual([7]);
    await pastARetryRound();
    expect(told()).toEqual([[7, 1]]);
  });

  it('tells a membership that was away as soon as it is back, with the newest facts of each project', async () => {
    const { membership, push, applied, logged, pastARetryRound, told } = await setUp({ up: false });
    await push.push(facts(7, 1));
    await push.push(facts(7, 2));
    await push.push(facts(8, 1));
    expect(membership.received).toEqual([]);
    // Away for a retry round at least: one more failed send than the three pushes' own.
    const failedSends = () => logged.filter((message) => message === 'membership not reached').length;
    await until(() => failedSends() > 3);
    await membership.start();
    await until(() => membership.received.length === 2);
    expect(membership.received).toEqual([
      [7, 2],
      [8, 1],
    ]);
    // Each project's cached access is dropped again once membership holds its facts.
    expect(applied.filter((id) => id === 7)).toHaveLength(3);
    await pastARetryRound();
    expect(told()).toHaveLength(2);
  });

  it('gives up after retryForMs, leaving the rest to the project event', async () => {
    const { membership, push, logged, pastARetryRound, told } = await setUp({ up: false, retryForMs: 100 });
    await push.push(facts(9, 1));
    await until(() => logged.includes('membership still not reached; the project event will tell it'));
    await membership.start();
    await pastARetryRound();
    expect(told()).toEqual([]);
  });
});
