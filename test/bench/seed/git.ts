import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** Runs git and answers its trimmed stdout; a failure carries git's stderr. */
export async function git(args: string[], cwd?: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync('git', args, { cwd, maxBuffer: 64 * 1024 * 1024 });
    return stdout.trim();
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`git ${args.join(' ')} failed: ${e.stderr || e.message}`, { cause: error });
  }
}

/** Pipes chunks into a git command's stdin (with backpressure) and waits for it to succeed. */
export function gitWithInput(args: string[], cwd: string, input: Iterable<Buffer>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`git ${args.join(' ')}: exit ${code}: ${stderr}`)),
    );
    const iterator = input[Symbol.iterator]();
    const pump = () => {
      for (let next = iterator.next(); !next.done; next = iterator.next()) {
        if (!child.stdin.write(next.value)) return void child.stdin.once('drain', pump);
      }
      child.stdin.end();
    };
    child.stdin.on('error', reject);
    pump();
  });
}
