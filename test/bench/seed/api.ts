/** The REST calls the seeding makes, as one user; every failure carries the status and the body. */
export interface BenchApi {
  restUrl: string;
  token: string;
  username: string;
  post<T>(path: string, body: unknown, expect?: number): Promise<T>;
  get<T>(path: string): Promise<T>;
  /** The project's clone URL over the facade's git HTTP, with this user's credentials. */
  gitUrl(pathWithNamespace: string): string;
}

export function benchApi(restUrl: string, token: string, username: string): BenchApi {
  const call = async (method: string, path: string, body: unknown, expect: number) => {
    const response = await fetch(restUrl + path, {
      method,
      headers: { 'PRIVATE-TOKEN': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== expect)
      throw new Error(
        `seeding: ${method} ${path} answered ${response.status}, wanted ${expect}: ${text.slice(0, 2000)}`,
      );
    return JSON.parse(text);
  };
  return {
    restUrl,
    token,
    username,
    post: (path, body, expect = 201) => call('POST', path, body, expect),
    get: (path) => call('GET', path, undefined, 200),
    gitUrl: (pathWithNamespace) => {
      const url = new URL(restUrl.replace(/\/api\/v3$/, '') + `/${pathWithNamespace}.git`);
      url.username = username;
      url.password = token;
      return url.toString();
    },
  };
}

/** Creates a non-admin user (as root) and signs in as them: the bench reads as an ordinary member would. */
export async function createBenchUser(root: BenchApi, username: string): Promise<BenchApi & { userId: number }> {
  const password = 'bench-password-1';
  const user = await root.post<{ id: number }>('/users', {
    email: `${username}@bench.example`,
    password,
    username,
    name: `Bench ${username}`,
  });
  const response = await fetch(`${root.restUrl}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: username, password }),
  });
  const text = await response.text();
  if (response.status !== 201)
    throw new Error(`seeding: POST /session answered ${response.status}: ${text.slice(0, 2000)}`);
  const { private_token } = JSON.parse(text) as { private_token: string };
  return { ...benchApi(root.restUrl, private_token, username), userId: user.id };
}
