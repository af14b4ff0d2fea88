// Runs once (on the SQLite pass): the scenario harness's own rules, which the engine plays no part in.
/**
 * The scenario harness's own rules (CONTRIBUTING.md, "Writing a scenario row"): a successful write row
 * states its events or says 'any'; a seed's error answer fails the seed; `env` is seen by the row's
 * server while it starts and put back before the request; `teardown` runs after the row.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import {
  checkTable,
  checkedRequests,
  runScenarios,
  setEnvironment,
  startTestServer,
  type Scenario,
} from '../harness.ts';

const write: Scenario = { name: 'a write', method: 'POST', url: '/posts', status: 201, contains: ['"doc"'] };

describe('a table does not load', () => {
  test('with a successful write that states no events', () => {
    expect(() => checkTable('unstated', [write])).toThrow(
      "say which events these writes fire (events, or 'any'): a write",
    );
    expect(() => runScenarios('unstated', {}, [write])).toThrow('say which events');
  });
  test('but does with the events stated, or any; a refused write need not state them', () => {
    const refused = { ...write, name: 'a refused write', status: 403 };
    const rows: Scenario[] = [{ ...write, events: { create: 1 } }, { ...write, name: 'w', events: 'any' }, refused];
    expect(() => checkTable('stated', rows)).not.toThrow();
  });
});

test('a seed request answered with an error fails the seed', async () => {
  const t = await startTestServer({}, { socket: false });
  try {
    const seedServer = checkedRequests(t);
    expect((await seedServer.request('GET', '/users/init')).status).toBe(200);
    await expect(seedServer.request('GET', '/no-such-collection')).rejects.toThrow(
      'seed: GET /no-such-collection answered 404',
    );
    // fetch stays unchecked, for a seed that means to be refused.
    expect((await seedServer.fetch('/no-such-collection')).status).toBe(404);
  } finally {
    await t.stop();
  }
});

test('setEnvironment puts back what was there, and removes what was not', () => {
  process.env.CMS_HARNESS_KEPT = 'before';
  const putBack = setEnvironment({ CMS_HARNESS_KEPT: 'during', CMS_HARNESS_NEW: 'during' });
  expect([process.env.CMS_HARNESS_KEPT, process.env.CMS_HARNESS_NEW]).toEqual(['during', 'during']);
  putBack();
  expect([process.env.CMS_HARNESS_KEPT, process.env.CMS_HARNESS_NEW]).toEqual(['before', undefined]);
  delete process.env.CMS_HARNESS_KEPT;
});

const tornDown: string[] = [];
runScenarios('env and teardown on a row', { jobs: { secret: 'from-the-config' } }, [
  {
    name: 'the server started with the variable; the request runs without it',
    method: 'GET',
    url: '/jobs/run',
    headers: { authorization: 'Bearer from-the-environment' },
    env: { CMS_CRON_SECRET: 'from-the-environment' },
    status: 200,
    contains: ['"jobs"'],
    check: () => expect(process.env.CMS_CRON_SECRET).toBeUndefined(),
    teardown: (t) => void tornDown.push(t.dir),
  },
]);

describe('after the table', () => {
  afterAll(() => {
    tornDown.length = 0;
  });
  test('the row was torn down', () => {
    expect(tornDown).toHaveLength(1);
  });
});
