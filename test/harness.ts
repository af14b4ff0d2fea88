/**
 * The scenario harness (CONTRIBUTING.md, "Writing a scenario row"): test servers on the engine the run
 * chose (a SQLite file in a temp folder, or a database of the PostgreSQL test cluster), listening on a
 * random loopback port or answering in-process, and tables of scenarios — method, url, body, headers, who
 * asks, expected status, body fragments that must and must not appear, and the exact internal events that
 * must fire — each row on its own copy of the state the table's seed left.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCMS } from '../src/create-cms.ts';
import type { CMS } from '../src/cms.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { manualClock } from '../src/clock.ts';
import type { UserConfig } from '../src/config/types.ts';
import type { ChangeEventType } from '../src/events/change-events.ts';
import type { Engine } from '../src/db/store.ts';
import { serveInProcess } from './support/in-process-server.ts';
import { createTestDatabase, dropDatabase, keepDatabaseState, testPool } from './support/postgres.ts';

export const quietLog = { info() {}, warn() {}, error() {} };

export function tempDir(prefix = 'cms-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export type Session = { token: string; csrfToken: string; user: Record<string, unknown> };

export type TestServer = {
  cms: CMS;
  server: RunningServer;
  url: string;
  api: string;
  dir: string;
  /** The SQLite file or PostgreSQL URL it runs on (give it as `database` to start another server on it). */
  database: string;
  clock: ReturnType<typeof manualClock>;
  events: { type: ChangeEventType; collection?: string; global?: string; id?: number }[];
  request(method: string, pathname: string, options?: RequestOptions): Promise<TestResponse>;
  /** The raw answer (bytes, streams) to a path under the API, or to an absolute URL; no socket needed. */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  login(email: string, password: string): Promise<Session>;
  /** Creates a user through the Local API-level operation (no HTTP) and logs them in. */
  user(role: string, email?: string, password?: string): Promise<Session>;
  /**
   * A signed-in user of that role, made once per server and then reused (a new user costs a password hash
   * and a login). In a scenario table the seed's sessions are every row's: the rows' `as` roles, and any
   * role the seed asked for.
   */
  session(role: string): Promise<Session>;
  /** The sessions `session` made or was given, by role. */
  sessions: Map<string, Session>;
  stop(): Promise<void>;
};

export type RequestOptions = {
  body?: unknown;
  headers?: Record<string, string>;
  /** A bearer session or API key. */
  token?: string;
  /** Send the session as a cookie (with CSRF header and own Origin unless told otherwise). */
  cookie?: Session;
};
export type TestResponse = { status: number; headers: Headers; body: any; text: string };

let userCounter = 0;

/** The engines the scenario tables run on (a matrix: every table on each). */
export const TEST_ENGINES: readonly Engine[] = ['sqlite', 'postgres'];
/** The engine of servers started without one: CMS_TEST_ENGINE, else SQLite. */
export const DEFAULT_TEST_ENGINE: Engine = process.env.CMS_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * A database that several servers share in turn or at once (a restart, two instances): a file in `dir` on
 * SQLite, a fresh database of the test cluster on PostgreSQL. Pass it as the config's `database`; `drop`
 * removes it when the test is done (servers given a `database` never drop it themselves).
 */
export async function sharedTestDatabase(
  dir: string,
  engine: Engine = DEFAULT_TEST_ENGINE,
): Promise<{ database: string; drop(): Promise<void> }> {
  if (engine === 'sqlite') return { database: path.join(dir, 'data/cms.db'), drop: async () => {} };
  const pg = await createTestDatabase({ migrated: true });
  return { database: pg.url, drop: pg.drop };
}

/**
 * `jobLoop`: a test server leaves jobs to `POST /jobs/run` unless asked; the loop's timed runs would read
 * the manual clock the test moves and could take a due job from under the request that checks it.
 */
export type TestServerOptions = {
  dir?: string;
  dev?: boolean;
  clockStart?: number;
  engine?: Engine;
  jobLoop?: boolean;
  /** `none`: the database is already migrated for this config (a scenario row's copy); start without checking. */
  migrate?: 'auto' | 'none';
  /** Sessions by role that `session` answers instead of making new users (valid on a copy of their database). */
  sessions?: Map<string, Session>;
  /** `false`: no socket; requests reach the handler in-process (test/support/in-process-server.ts). */
  socket?: boolean;
};

export async function startTestServer(config: UserConfig = {}, options: TestServerOptions = {}): Promise<TestServer> {
  if (options.socket === false && options.jobLoop) throw new Error('the job loop runs only beside a socket server');
  const dir = options.dir ?? tempDir();
  const clock = manualClock(options.clockStart ?? Date.parse('2026-01-01T00:00:00Z'));
  // PostgreSQL: a fresh database on the test cluster per server, dropped when it stops.
  const pg =
    (options.engine ?? DEFAULT_TEST_ENGINE) === 'postgres' && !config.database
      ? await createTestDatabase({ migrated: true })
      : null;
  const database = pg?.url ?? path.join(dir, 'data/cms.db');
  const cms = await createCMS({
    config: { database, ...testPool(config.database ?? database), ...config },
    rootDir: dir,
    clock,
    log: quietLog,
    dev: options.dev,
    migrate: options.migrate,
  }).catch(async (error) => {
    await pg?.drop();
    throw error;
  });
  const inProcess = options.socket === false ? serveInProcess(cms) : null;
  const server = inProcess ?? startServer(cms, { port: 0, host: '127.0.0.1', jobLoop: options.jobLoop ?? false });
  const send = inProcess ? inProcess.fetch : fetch;
  const absolute = (pathname: string) => (pathname.startsWith('http') ? pathname : `${api}${pathname}`);
  const api = `${server.url}${cms.config.routes.api}`;
  const events: TestServer['events'] = [];
  cms.events.on((e) => void events.push({ type: e.type, collection: e.collection, global: e.global, id: e.id }));

  const request = async (method: string, pathname: string, o: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...o.headers };
    let body: BodyInit | undefined;
    if (o.body instanceof FormData || typeof o.body === 'string' || o.body instanceof Blob) body = o.body as BodyInit;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    if (o.token) headers.authorization ??= `Bearer ${o.token}`;
    if (o.cookie) {
      headers.cookie ??= `cms-session=${o.cookie.token}; cms-csrf=${o.cookie.csrfToken}`;
      headers['x-csrf-token'] ??= o.cookie.csrfToken;
      headers.origin ??= server.url;
    }
    const res = await send(absolute(pathname), { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  const login = async (email: string, password: string): Promise<Session> => {
    const res = await request('POST', '/users/login', { body: { email, password } });
    if (res.status !== 200) throw new Error(`login failed for ${email}: ${res.status} ${res.text}`);
    return { token: res.body.token, csrfToken: res.body.csrfToken, user: res.body.user };
  };

  const user = async (
    role: string,
    email = `${role}-${++userCounter}@example.com`,
    password = 'password123',
  ): Promise<Session> => {
    const { create } = await import('../src/operations/create.ts');
    const { createContext } = await import('../src/operation-context.ts');
    await create(createContext(cms, { overrideAccess: true }), {
      collection: 'users',
      data: { email, password, role, active: true },
    });
    return login(email, password);
  };

  const sessions = new Map(options.sessions);
  const session = async (role: string): Promise<Session> => {
    const known = sessions.get(role);
    if (known) return known;
    const made = await user(role);
    sessions.set(role, made);
    return made;
  };

  return {
    cms,
    server,
    url: server.url,
    api,
    dir,
    database: cms.config.databasePath,
    clock,
    events,
    request,
    fetch: (pathname, init = {}) => send(absolute(pathname), { redirect: 'manual', ...init }),
    login,
    user,
    session,
    sessions,
    async stop() {
      try {
        await server.stop();
      } finally {
        await pg?.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export type Scenario = {
  name: string;
  method: string;
  url: string | ((t: TestServer) => string);
  body?: unknown | ((t: TestServer) => unknown);
  headers?: Record<string, string>;
  /** Who asks: a role name (a fresh user with that role, bearer token), 'cookie:<role>' for a cookie session, or null/undefined for nobody. */
  as?: string | null;
  /**
   * Environment variables the row's server sees while it starts, when the config reads them; they are put
   * back before the row's request, so a failing row cannot leave them to the rows after it.
   */
  env?: Record<string, string>;
  /** What this row needs beyond the table's seed, made on its own copy before the request. */
  setup?: (t: TestServer) => Promise<void> | void;
  /** Undoes what `setup` changed outside the row's server; runs after the row whether it passed or failed. */
  teardown?: (t: TestServer) => Promise<void> | void;
  status: number;
  /** Substrings (or a predicate) the response text must contain. */
  contains?: string[];
  notContains?: string[];
  /** The response body must be empty (a 204, a 304, a HEAD). */
  emptyBody?: true;
  /**
   * Exact counts of internal events fired by this request, e.g. { create: 1, publish: 1 } (no other kind
   * may fire). `'*'` counts every kind not named: `{ '*': 0 }` says no event fired at all, and
   * `{ update: 1, '*': 0 }` spells out that nothing but the update did. A write that succeeds (POST, PUT,
   * PATCH or DELETE answered 2xx) must say what it fires, or `'any'` where the events are not the point.
   */
  events?: Partial<Record<ChangeEventType | '*', number>> | 'any';
  check?: (res: TestResponse, t: TestServer) => void | Promise<void>;
};

/**
 * How a table's rows meet state. `seed` runs once, on a server of its own, and leaves the state every row
 * starts from; every row then runs on a copy of it and can run alone (`-t`): on SQLite a copy of the
 * seeded data folder, on PostgreSQL the seeded database with its rows put back as the seed left them
 * (keepDatabaseState in test/support/postgres.ts). A session for every role the rows ask as is made by
 * the seed's server, so it is in every copy.
 * - `socket: true`: the rows' servers listen on a loopback port, for rows that reach them other than
 *   through `t.request` and `t.fetch` (raw HTTP, event streams, another process). Without it they run
 *   in-process.
 */
export type ScenarioTableOptions = {
  seed?: (t: TestServer) => Promise<void> | void;
  socket?: boolean;
};

/** Runs a table of scenarios from the state `seed` leaves (ScenarioTableOptions; a function is the seed). */
export function runScenarios(
  title: string,
  config: UserConfig | (() => UserConfig),
  scenarios: Scenario[],
  options: ScenarioTableOptions | ScenarioTableOptions['seed'] = {},
) {
  const { seed, socket = false } = typeof options === 'function' ? { seed: options } : options;
  checkTable(title, scenarios);
  const makeConfig = () => (typeof config === 'function' ? config() : config);
  const serverOptions: TestServerOptions = { socket };
  describe(title, () => {
    let seeded: SeededState | undefined;
    let sessions = new Map<string, Session>();
    beforeAll(async () => {
      const t = await startTestServer(makeConfig(), serverOptions);
      await seed?.(checkedRequests(t));
      for (const role of rolesAskedAs(scenarios)) await t.session(role);
      sessions = t.sessions;
      await t.server.stop();
      seeded = seededState(t);
    });
    afterAll(async () => {
      await seeded?.remove();
    });
    for (const s of scenarios) {
      test(s.name, async () => {
        const copy = await seeded!.copy();
        const config = copy.database ? { ...makeConfig(), database: copy.database } : makeConfig();
        const putBack = setEnvironment(s.env);
        const t = await startTestServer(config, {
          ...serverOptions,
          dir: copy.dir,
          clockStart: seeded!.clockNow,
          sessions,
          migrate: 'none',
        }).finally(putBack);
        try {
          await runScenario(s, t);
        } finally {
          try {
            await s.teardown?.(t);
          } finally {
            await t.stop();
          }
        }
      });
    }
  });
}

type SeededState = {
  clockNow: number;
  /** A data folder (and on PostgreSQL a database) holding what the seed left, for one row. */
  copy(): Promise<{ dir: string; database?: string }>;
  remove(): Promise<void>;
};

/** The state a stopped seed server left, copied once per row. */
function seededState(t: TestServer): SeededState {
  const copyDir = () => {
    // A SQLite connection closed late (a finalizer) checkpoints and removes `-wal` and `-shm` while the
    // folder is being copied: the copy then misses a file it listed. Once they are gone the folder is still,
    // so a second copy is whole.
    for (let attempt = 1; ; attempt++) {
      const dir = tempDir();
      try {
        fs.cpSync(t.dir, dir, { recursive: true });
        return dir;
      } catch (error) {
        fs.rmSync(dir, { recursive: true, force: true });
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt === 3) throw error;
      }
    }
  };
  const removeDir = () => fs.rmSync(t.dir, { recursive: true, force: true });
  if (!t.database.startsWith('postgres')) {
    return { clockNow: t.clock.now(), copy: async () => ({ dir: copyDir() }), remove: async () => removeDir() };
  }
  const kept = keepDatabaseState(t.database);
  return {
    clockNow: t.clock.now(),
    async copy() {
      await (await kept).restore();
      return { dir: copyDir(), database: t.database };
    },
    async remove() {
      await (await kept).close();
      await dropDatabase(t.database);
      removeDir();
    },
  };
}

/** What every table must say, checked when it loads: what each body holds, and what each successful write fires. */
export function checkTable(title: string, scenarios: Scenario[]): void {
  const silent = scenarios.filter((s) => !s.contains?.length && !s.check && !s.emptyBody).map((s) => s.name);
  if (silent.length)
    throw new Error(`${title}: say what the body holds (contains, check or emptyBody) in: ${silent.join('; ')}`);
  const uncounted = scenarios.filter((s) => isSuccessfulWrite(s) && s.events === undefined).map((s) => s.name);
  if (uncounted.length)
    throw new Error(`${title}: say which events these writes fire (events, or 'any'): ${uncounted.join('; ')}`);
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const isSuccessfulWrite = (s: Scenario) => WRITE_METHODS.has(s.method) && s.status >= 200 && s.status < 300;

/** Sets the variables and answers how to put back what was there before. */
export function setEnvironment(env: Record<string, string> | undefined): () => void {
  const before = Object.entries(env ?? {}).map(([name, value]) => {
    const was = process.env[name];
    process.env[name] = value;
    return [name, was] as const;
  });
  return () => {
    for (const [name, was] of before) {
      if (was === undefined) delete process.env[name];
      else process.env[name] = was;
    }
  };
}

/**
 * The seed's server, whose `request` fails the seed on an error answer: every row would otherwise start
 * from a state the seed did not make. A seed that means to be refused uses `fetch`.
 */
export function checkedRequests(t: TestServer): TestServer {
  const request: TestServer['request'] = async (method, pathname, options) => {
    const res = await t.request(method, pathname, options);
    if (res.status >= 400)
      throw new Error(`seed: ${method} ${pathname} answered ${res.status}: ${res.text.slice(0, 300)}`);
    return res;
  };
  return { ...t, request };
}

function rolesAskedAs(scenarios: Scenario[]): Set<string> {
  return new Set(scenarios.flatMap((s) => (s.as ? [s.as.replace(/^cookie:/, '')] : [])));
}

async function runScenario(s: Scenario, t: TestServer): Promise<void> {
  await s.setup?.(t);
  const options: RequestOptions = { headers: s.headers };
  if (s.as) {
    const cookie = s.as.startsWith('cookie:');
    const session = await t.session(cookie ? s.as.slice(7) : s.as);
    if (cookie) options.cookie = session;
    else options.token = session.token;
  }
  const body = typeof s.body === 'function' ? (s.body as (t: TestServer) => unknown)(t) : s.body;
  if (body !== undefined) options.body = body;
  const url = typeof s.url === 'function' ? s.url(t) : s.url;
  const before = t.events.length;
  const res = await t.request(s.method, url, options);
  if (res.status !== s.status)
    throw new Error(`${s.method} ${url}: expected ${s.status}, got ${res.status}: ${res.text.slice(0, 500)}`);
  for (const fragment of s.contains ?? []) expect(res.text).toContain(fragment);
  for (const fragment of s.notContains ?? []) expect(res.text).not.toContain(fragment);
  if (s.emptyBody) expect(res.text).toBe('');
  if (s.events && s.events !== 'any')
    expect(firedEvents(t.events.slice(before), s.events)).toEqual(s.events as Record<string, number>);
  await s.check?.(res, t);
}

/** Counts of the events fired, by kind (0 for a kind expected but not fired); with `'*'`, the kinds not named are summed under it. */
function firedEvents(
  fired: TestServer['events'],
  expected: Partial<Record<ChangeEventType | '*', number>>,
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of fired) {
    const key = '*' in expected && !(e.type in expected) ? '*' : e.type;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  for (const key of Object.keys(expected)) counts[key] ??= 0;
  return counts;
}
