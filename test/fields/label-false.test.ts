/**
 * `label: false` on a field (Payload's website template writes it on every rich-text field) starts, and
 * everything that names fields copes with it: the admin's config, OpenAPI, GraphQL, MCP and generated types.
 */
import { expect, test } from 'bun:test';
import { runScenarios, tempDir, type Scenario } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { sanitizeConfig } from '../../src/config/sanitize.ts';
import { generateTypes } from '../../src/codegen/generate-types.ts';

const config: UserConfig = {
  collections: [
    {
      slug: 'posts',
      access: { read: () => true },
      fields: [
        { name: 'title', type: 'text', label: 'Headline' },
        { name: 'content', type: 'richText', label: false },
        { name: 'meta', type: 'group', label: false, fields: [{ name: 'summary', type: 'text', label: false }] },
      ],
    },
  ],
};

const rows: Scenario[] = [
  {
    name: 'the admin gets the field with label false, so it shows none',
    as: 'admin',
    method: 'GET',
    url: '/_admin/config',
    status: 200,
    contains: ['"name":"content"', '"label":false', '"label":"Headline"'],
  },
  {
    name: 'OpenAPI describes the field without a title',
    method: 'GET',
    url: '/openapi.json',
    status: 200,
    contains: ['"content":{', '"title":"Headline"'],
    notContains: ['"title":false', '"title":"false"'],
  },
  {
    name: 'GraphQL serves the field and its document',
    setup: async (t) => {
      const admin = await t.session('admin');
      const res = await t.request('POST', '/posts', {
        token: admin.token,
        body: { title: 'One', content: 'Some *text*', meta: { summary: 'S' } },
      });
      expect(res.status).toBe(201);
    },
    method: 'POST',
    url: '/graphql',
    body: { query: '{ Posts { docs { title content meta { summary } } } }' },
    status: 200,
    events: { '*': 0 },
    contains: ['"title":"One"', '"summary":"S"', '"root"'],
    notContains: ['"errors"'],
  },
  {
    name: 'MCP lists the tools, the field described without a label',
    as: 'admin',
    method: 'POST',
    url: '/mcp',
    headers: { accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    status: 200,
    events: { '*': 0 },
    contains: ['"create"', '"content"'],
    notContains: ['false. ', 'undefined. '],
  },
];

runScenarios('label: false on a field', config, rows);

test('generated types hold the fields with label false', () => {
  const sanitized = sanitizeConfig({ ...config, database: ':memory:' }, { configPath: null, rootDir: tempDir() });
  const source = generateTypes(sanitized, 'cms.config.ts');
  expect(source).toContain('content?:');
  expect(source).toContain('summary?:');
});
