import { request } from 'undici';
import type { Probe } from '../measure';
import { fmtMs, verdict } from '../report';
import { hugeKeyText } from '../../support/ssh-keys';
import type { BenchContext } from './context';

/**
 * Refusing a key of megabytes, one request at a time: identity answers 400 from the length and
 * the first 5,000 characters. Reading every line, or backtracking over the run of spaces, took it
 * seconds; the tests only check the answer (no clock on a shared machine), so the time is here.
 */
export async function benchHugeKeys(outer: BenchContext): Promise<void> {
  const { report, runner, stack } = outer;
  const user = await outer.newUser('bench-keys');
  const url = `${stack.restUrl}/user/keys`;
  const body = JSON.stringify({ title: 'huge', key: hugeKeyText() });
  const probe: Probe = async () => {
    const response = await request(url, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': user.token, 'content-type': 'application/json' },
      body,
    });
    const text = await response.body.text();
    if (response.statusCode !== 400) throw new Error(`POST /user/keys: ${response.statusCode} ${text.slice(0, 200)}`);
    return { bytes: text.length };
  };
  const name = 'POST /user/keys of 9 MiB, refused';
  const { [name]: figures } = await runner.serial([{ name, probe, warm: 1 }]);
  report.row({
    order: 16,
    path: 'a key of 9 MiB refused (400), one at a time',
    figure: `p50 ${fmtMs(figures.p50)}, p99 ${fmtMs(figures.p99)} over ${figures.samples}`,
    anchor: '—',
    ratio: '—',
    goal: 'p99 ≤ 3 s',
    verdict: verdict(figures.errors === 0, figures.p99 <= 3000),
  });
}
