import { credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { ANONYMOUS, signPrincipal, type Logger } from '@hub/common';
import { createGitClients, loadGitProtos, type RefServiceClient } from '@hub/protos';
import { call, collect, startHarness } from './testing/harness';

describe('who may call the git worker over gRPC', () => {
  let h: Awaited<ReturnType<typeof startHarness>>;
  let repo: Awaited<ReturnType<Awaited<ReturnType<typeof startHarness>>['repo']>>;
  beforeAll(async () => {
    h = await startHarness();
    repo = await h.repo([{ files: { 'a.txt': 'a' } }]);
  });
  afterAll(() => h.stop());

  const codeOf = (work: Promise<unknown>) =>
    work.then(
      () => status.OK,
      (error: ServiceError) => error.code,
    );

  it('refuses unary and streaming calls without a credential', async () => {
    const protos = loadGitProtos();
    const bare = new protos.RefService(h.address, credentials.createInsecure()) as unknown as RefServiceClient;
    try {
      expect(await codeOf(call(bare, 'ListBranches', { repository: repo.repository }))).toBe(status.UNAUTHENTICATED);
    } finally {
      (bare as unknown as { close: () => void }).close();
    }
    const blobs = new protos.BlobService(h.address, credentials.createInsecure());
    try {
      expect(
        await codeOf(collect(blobs, 'GetBlob', { repository: repo.repository, ref: 'master', path: 'a.txt' })),
      ).toBe(status.UNAUTHENTICATED);
    } finally {
      (blobs as unknown as { close: () => void }).close();
    }
  });

  it('refuses a forged or stale signature, and a service that is not a caller; the caller logs each refusal', async () => {
    const logged: Array<{ caller: string; rpc: string }> = [];
    const logger = { error: (context: { caller: string; rpc: string }) => logged.push(context) } as unknown as Logger;
    const forged = createGitClients(h.address, { caller: 'repository', secret: 'not-the-secret-'.repeat(3), logger });
    const other = createGitClients(h.address, { caller: 'hooks', secret: h.secret, logger });
    try {
      expect(await codeOf(call(forged.ref, 'ListBranches', { repository: repo.repository }))).toBe(
        status.UNAUTHENTICATED,
      );
      expect(await codeOf(call(other.ref, 'ListBranches', { repository: repo.repository }))).toBe(
        status.PERMISSION_DENIED,
      );
      expect(
        await codeOf(collect(other.blob, 'GetBlob', { repository: repo.repository, ref: 'master', path: 'a.txt' })),
      ).toBe(status.PERMISSION_DENIED);
    } finally {
      forged.close();
      other.close();
    }
    // A refusal is the deployment's fault, which the caller's log names, streams included.
    expect(logged.map(({ caller, rpc }) => [caller, rpc.split('/').pop()])).toEqual([
      ['repository', 'ListBranches'],
      ['hooks', 'ListBranches'],
      ['hooks', 'GetBlob'],
    ]);
    // Signed with the right secret by a caller on the list, but ten minutes ago: a replay.
    const stale = signPrincipal({ ...ANONYMOUS, system: 'repository' }, h.secret, Date.now() - 10 * 60_000);
    const metadata = new Metadata();
    metadata.set('x-hub-principal', stale);
    const protos = loadGitProtos();
    const raw = new protos.RefService(h.address, credentials.createInsecure()) as unknown as {
      ListBranches: (...args: unknown[]) => unknown;
      close: () => void;
    };
    try {
      const code = await new Promise((resolve) =>
        raw.ListBranches({ repository: repo.repository }, metadata, (error: ServiceError | null) =>
          resolve(error?.code ?? status.OK),
        ),
      );
      expect(code).toBe(status.UNAUTHENTICATED);
    } finally {
      raw.close();
    }
  });

  it('serves a signed caller', async () => {
    const branches = await call<{ branches: Array<{ name: string }> }>(h.ref, 'ListBranches', {
      repository: repo.repository,
    });
    expect(branches.branches.map((b) => b.name)).toEqual(['master']);
    const chunks = await collect(h.blob, 'GetBlob', { repository: repo.repository, ref: 'master', path: 'a.txt' });
    expect(chunks.length).toBeGreaterThan(0);
  });
});
