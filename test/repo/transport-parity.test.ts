// Runs once (on the SQLite pass): checks the transports' table on one instance, which the engine plays no part in.
/**
 * The table of docs/architecture.md, "Transports", held true: every claim it makes is checked on a running
 * instance (REST route registered and its method in /openapi.json, GraphQL field in the schema, MCP tool
 * listed and runnable, Local API and client methods present), every exported operation has a row, and no
 * tool, method or GraphQL field of a document exists that the table does not name.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../harness.ts';
import { appRoutes } from '../../src/http/app.ts';
import { localAPI } from '../../src/local.ts';
import { createClient } from '../../client/index.js';
import { toolDefinitions } from '../../src/mcp/tool-schemas.ts';
import { TOOLS_BY_NAME } from '../../src/mcp/tools.ts';
import * as operations from '../../src/operations/index.ts';
import type { UserConfig } from '../../src/config/types.ts';

const root = join(import.meta.dir, '../..');
const TRANSPORTS = ['REST', 'GraphQL', 'MCP', 'Local API', 'client'] as const;
type Transport = (typeof TRANSPORTS)[number];
type Row = { operation: string; claims: Record<Transport, string[]>; why: string };

/** Exports of the operations module that are steps, not actions (the page says so under the table). */
const STEPS = ['createContext', 'findRelated'];
/** Local API members that are not document operations: the instance, its config, jobs and webhooks, closing. */
// `releases`: the releases' own namespace (`releases.create`, `releases.publish`, …; docs/releases.md).
const LOCAL_EXTRAS = [
  'cms',
  'config',
  'flushWebhooks',
  'retryWebhooks',
  'runJobs',
  'scheduledJobs',
  'close',
  'releases',
];

function readTable(): Row[] {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Transports'));
  const body = section.slice(0, section.indexOf('\n## ', 1));
  const ticks = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  return body
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split('|').slice(1, -1);
      if (cells.length !== TRANSPORTS.length + 2) throw new Error(`a row of ${cells.length} cells: ${line}`);
      const claims = Object.fromEntries(TRANSPORTS.map((name, i) => [name, ticks(cells[i + 1]!)])) as Row['claims'];
      for (const [i, name] of TRANSPORTS.entries()) {
        const cell = cells[i + 1]!.trim();
        if (!claims[name].length && cell !== '—') throw new Error(`${line}: ${name} says neither a name nor —`);
      }
      return { operation: ticks(cells[0]!)[0]!, claims, why: cells.at(-1)!.trim() };
    });
}

const config: UserConfig = {
  collections: [{ slug: 'posts', drafts: true, fields: [{ name: 'title', type: 'text' }] }],
  globals: [{ slug: 'settings', drafts: true, fields: [{ name: 'siteName', type: 'text' }] }],
};

const rows = readTable();
let t: TestServer;
let openapi: { paths: Record<string, Record<string, unknown>> };
let graphQLFields: Set<string>;
let routes: string[][];

beforeAll(async () => {
  t = await startTestServer(config, { socket: false });
  openapi = (await t.request('GET', '/openapi.json')).body;
  const schema = await t.request('POST', '/graphql', {
    body: { query: '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }' },
  });
  const types = schema.body.data.__schema;
  graphQLFields = new Set(
    [...types.queryType.fields, ...types.mutationType.fields].map((f: { name: string }) => f.name),
  );
  const api = t.cms.config.routes.api;
  routes = appRoutes(t.cms)
    .filter((r) => r.path.startsWith(`${api}/`))
    .map((r) => r.path.slice(api.length).split('/'));
});
afterAll(async () => {
  await t?.stop();
});

/** A claimed path is served when a registered route matches it segment by segment (`:x` matches any segment). */
const registered = (path: string) => {
  const parts = path.split('/');
  return routes.some(
    (route) =>
      route.length === parts.length && route.every((segment, i) => segment === parts[i] || segment.startsWith(':')),
  );
};
/** The claimed path as the OpenAPI document of this config names it. */
const documentedAs = (path: string) =>
  path
    .replace(':collection', 'posts')
    .replace(':slug', 'settings')
    .replace(/:(\w+)/g, '{$1}');

describe('docs/architecture.md, "Transports"', () => {
  test('has one row per operation the operations module exports, and says why wherever a transport lacks one', () => {
    const actions = Object.entries(operations)
      .filter(([name, value]) => typeof value === 'function' && !STEPS.includes(name))
      .map(([name]) => name)
      .sort();
    expect(rows.map((r) => r.operation).sort()).toEqual(actions);
    const unexplained = rows.filter((r) => TRANSPORTS.some((name) => !r.claims[name].length) && !r.why);
    expect(unexplained.map((r) => r.operation)).toEqual([]);
  });

  test('REST: each route is registered and its method is in /openapi.json', () => {
    const missing: string[] = [];
    for (const row of rows)
      for (const claim of row.claims.REST) {
        const [method, path] = claim.split(' ') as [string, string];
        if (!registered(path)) missing.push(`${row.operation}: ${claim} is not a registered route`);
        if (!openapi.paths[documentedAs(path)]?.[method.toLowerCase()])
          missing.push(`${row.operation}: ${claim} is not in /openapi.json`);
      }
    expect(missing).toEqual([]);
  });

  test('GraphQL: each field is in the schema, and every field of posts and settings has its row', () => {
    const claimed = rows.flatMap((r) => r.claims.GraphQL);
    expect(claimed.filter((name) => !graphQLFields.has(name))).toEqual([]);
    const documentFields = [...graphQLFields].filter((name) => /^[a-z]*(Post|Posts|Settings)$/.test(name));
    expect(documentFields.filter((name) => !claimed.includes(name))).toEqual([]);
  });

  test('MCP: each tool is listed and runs; every tool but describe has its row', () => {
    const listed = toolDefinitions(t.cms.config).map((d) => d.name);
    const claimed = rows.flatMap((r) => r.claims.MCP);
    expect(claimed.filter((name) => !listed.includes(name) || !TOOLS_BY_NAME.has(name))).toEqual([]);
    expect(listed.filter((name) => name !== 'describe' && !claimed.includes(name))).toEqual([]);
  });

  test('Local API: each method exists; every other method is a named extra', () => {
    const local = localAPI(t.cms) as unknown as Record<string, unknown>;
    const claimed = rows.flatMap((r) => r.claims['Local API']);
    expect(claimed.filter((name) => typeof local[name] !== 'function')).toEqual([]);
    expect(Object.keys(local).filter((name) => !claimed.includes(name) && !LOCAL_EXTRAS.includes(name))).toEqual([]);
  });

  test('client: each method exists in index.js and is declared in index.d.ts; every method has its row', () => {
    const client = createClient({ url: t.api }) as unknown as Record<string, unknown>;
    const declarations = readFileSync(join(root, 'client/index.d.ts'), 'utf8');
    const claimed = rows.flatMap((r) => r.claims.client);
    expect(claimed.filter((name) => typeof client[name] !== 'function')).toEqual([]);
    expect(claimed.filter((name) => !new RegExp(`\\n  ${name}<`).test(declarations))).toEqual([]);
    expect(Object.keys(client).filter((name) => !claimed.includes(name))).toEqual([]);
  });
});
