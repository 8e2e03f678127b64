import postgres from 'postgres';
import { TEST_DATABASE_VARIABLE } from './testing/subgraph-harness';

// patches/postgres@3.4.9.patch: sql.begin() reserves its connection once BEGIN is written.
// Unpatched, the reservation was skipped whenever that write filled the connection's pipeline
// (or the socket's buffer, as under load): BEGIN failed with UNSAFE_TRANSACTION, and the server
// was left in a transaction on a pooled connection. The pipeline is made small here so that the
// boundary is reached on purpose. In the subgraph project for its real Postgres.
describe("postgres.js's sql.begin at a full pipeline (patched)", () => {
  const url = () => {
    const value = process.env[TEST_DATABASE_VARIABLE];
    if (!value) throw new Error(`${TEST_DATABASE_VARIABLE} is not set: run through jest (npm test)`);
    return value;
  };
  const pools: postgres.Sql[] = [];
  const pool = (options: { max: number; max_pipeline: number }) => {
    const sql = postgres(url(), { onnotice: () => {}, ...options });
    pools.push(sql);
    return sql;
  };
  afterAll(() => Promise.all(pools.map((sql) => sql.end({ timeout: 5 }))));

  it('runs a transaction when every write fills the pipeline', async () => {
    const sql = pool({ max: 2, max_pipeline: 0 });
    const [row] = await sql.begin((tx) => tx`select txid_current() as id, 1 as ok`);
    expect(row.ok).toBe(1);
    // The connection went back to the pool outside the transaction (which took an id).
    const [state] = await sql`select txid_current_if_assigned() is null as outside`;
    expect(state.outside).toBe(true);
  });

  it('keeps transactions and plain queries apart on a busy pool', async () => {
    const sql = pool({ max: 3, max_pipeline: 2 });
    // Every connection open: queries wait in the pool while theirs is connecting, not in its pipeline.
    await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.05)`));
    for (let round = 0; round < 5; round++) {
      // In this order on the wire (execute() sends at once; a query otherwise waits a tick): each
      // connection busy, a plain read pipelined behind it, then a BEGIN that fills the pipeline.
      const busy = [1, 2, 3].map(() => sql`select pg_sleep(0.05)`.execute());
      // Outside a transaction a read has no transaction id; inside one of those below, it has.
      const plain = [1, 2, 3].map(() =>
        sql`select txid_current_if_assigned() is null as outside`.execute().then(([row]) => row.outside),
      );
      const transactions = [1, 2, 3, 4, 5].map(() =>
        sql.begin(async (tx) => {
          const [first] = await tx`select txid_current() as id`;
          const [second] = await tx`select txid_current() as id`;
          return first.id === second.id;
        }),
      );
      const [sameTransaction, outside] = await Promise.all([
        Promise.all(transactions),
        Promise.all(plain),
        Promise.all(busy),
      ]);
      expect({ round, sameTransaction, outside }).toEqual({
        round,
        sameTransaction: [true, true, true, true, true],
        outside: [true, true, true],
      });
    }
  });
});
