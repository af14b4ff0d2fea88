/**
 * Scheduling (docs/drafts-and-versions.md) and scheduled jobs run by the job runner: time moves with the injectable clock,
 * never by sleeping. A due job runs through the same operations as REST, with the same events.
 */
import { expect } from 'bun:test';
import { runScenarios, type Scenario, type TestServer } from './harness.ts';
import { draftsConfig, JOBS_SECRET } from './fixtures/drafts-config.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const inFuture = (ms: number) => (t: TestServer) => new Date(t.clock.now() + ms).toISOString();
const cron = { authorization: `Bearer ${JOBS_SECRET}` };
const ids: Record<string, number> = {};
const remember = (name: string) => (res: { body: any }) => {
  ids[name] = res.body.doc.id;
};
const jobRow = async (t: TestServer, id: number) =>
  (await t.cms.store.get('SELECT * FROM _cms_jobs WHERE id = ?', [id]))!;

const runNow = (
  name: string,
  counts: { ran: number; failed: number },
  events: Scenario['events'],
  setup?: Scenario['setup'],
): Scenario => ({
  name,
  setup,
  method: 'POST',
  url: '/jobs/run',
  headers: cron,
  status: 200,
  events,
  check: (res) => expect(res.body).toEqual({ jobs: counts, webhooks: { sent: 0, failed: 0, pending: 0 } }),
});

runScenarios(
  'scheduling documents',
  draftsConfig,
  [
    {
      name: 'scheduling a publish answers 201 { doc: job }',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(12 * HOUR)(t) }),
      status: 201,
      events: {},
      check: (res, t) => {
        const job = res.body.doc;
        expect(Object.keys(job).sort()).toEqual(['action', 'at', 'collection', 'createdAt', 'id', 'parent', 'state']);
        expect(job).toMatchObject({
          action: 'publish',
          collection: 'posts',
          parent: 1,
          state: 'pending',
          at: new Date(t.clock.now() + 12 * HOUR).toISOString(),
        });
        ids.publish = job.id;
      },
    },
    {
      name: 'a time in the past is a 400',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(-MINUTE)(t) }),
      status: 400,
      contains: ['"field":"at"'],
      events: {},
    },
    {
      name: 'the current time is not in the future',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(0)(t) }),
      status: 400,
      contains: ['"field":"at"'],
    },
    {
      name: 'a time that is not ISO 8601 is a 400',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/schedule',
      body: { action: 'publish', at: 'tomorrow' },
      status: 400,
      contains: ['"field":"at"'],
    },
    {
      name: 'an invalid date is a 400',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/schedule',
      body: { action: 'publish', at: '2099-13-45T00:00:00Z' },
      status: 400,
      contains: ['"field":"at"'],
    },
    {
      name: 'a missing time is a 400',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/schedule',
      body: { action: 'publish' },
      status: 400,
      contains: ['"field":"at"'],
    },
    {
      name: 'an unknown action is a 400',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/schedule',
      body: (t: TestServer) => ({ action: 'delete', at: inFuture(HOUR)(t) }),
      status: 400,
      contains: ['"field":"action"'],
    },
    {
      name: 'scheduling on a collection without drafts is a 400',
      as: 'editor',
      method: 'POST',
      url: '/pages/1/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 400,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'scheduling for a missing document is a 404',
      as: 'editor',
      method: 'POST',
      url: '/posts/999/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 404,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'scheduling without login is a 401',
      method: 'POST',
      url: '/posts/1/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 401,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'scheduling without update access is a 403',
      as: 'viewer',
      method: 'POST',
      url: '/posts/1/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 403,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'listing jobs without login is a 401',
      method: 'GET',
      url: '/posts/1/schedule',
      status: 401,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'listing jobs without update access is a 403',
      as: 'viewer',
      method: 'GET',
      url: '/posts/1/schedule',
      status: 403,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'a document may have several pending jobs',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/schedule',
      body: (t: TestServer) => ({ action: 'unpublish', at: inFuture(24 * HOUR)(t) }),
      status: 201,
      check: remember('unpublish'),
    },
    {
      name: 'a job for another document',
      as: 'editor',
      method: 'POST',
      url: '/posts/2/schedule',
      body: (t: TestServer) => ({ action: 'unpublish', at: inFuture(6 * HOUR)(t) }),
      status: 201,
      check: remember('other'),
    },
    {
      name: 'pending jobs are listed soonest first',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/schedule',
      status: 200,
      check: (res) =>
        expect(res.body.docs.map((j: any) => [j.id, j.action, j.state])).toEqual([
          [ids.publish, 'publish', 'pending'],
          [ids.unpublish, 'unpublish', 'pending'],
        ]),
    },
    {
      name: "cancelling another document's job is a 404",
      as: 'editor',
      method: 'DELETE',
      url: () => `/posts/1/schedule/${ids.other}`,
      status: 404,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'cancelling without update access is a 403',
      as: 'viewer',
      method: 'DELETE',
      url: () => `/posts/2/schedule/${ids.other}`,
      status: 403,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'cancelling answers { doc: job, message }',
      as: 'editor',
      method: 'DELETE',
      url: () => `/posts/2/schedule/${ids.other}`,
      status: 200,
      contains: ['"message"'],
      check: (res) =>
        expect(res.body.doc).toMatchObject({ id: ids.other, action: 'unpublish', parent: 2, state: 'cancelled' }),
    },
    {
      name: 'a cancelled job cannot be cancelled again',
      as: 'editor',
      method: 'DELETE',
      url: () => `/posts/2/schedule/${ids.other}`,
      status: 404,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'a job id that is not a number is a 404',
      as: 'editor',
      method: 'DELETE',
      url: '/posts/2/schedule/abc',
      status: 404,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'cancelled jobs are not listed',
      as: 'editor',
      method: 'GET',
      url: '/posts/2/schedule',
      status: 200,
      check: (res) => expect(res.body.docs).toEqual([]),
    },
    runNow('nothing is due yet', { ran: 0, failed: 0 }, {}),
    runNow('a minute before its time the publish does not run', { ran: 0, failed: 0 }, {}, (t) =>
      t.clock.advance(12 * HOUR - MINUTE),
    ),
    {
      name: 'the live document is still the old one',
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"title":"Live"'],
    },
    runNow(
      'when the clock reaches it the publish runs, with the events of a direct publish',
      { ran: 1, failed: 0 },
      { update: 1, publish: 1 },
      (t) => t.clock.advance(2 * MINUTE),
    ),
    {
      name: 'the scheduled publish published the pending draft',
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"title":"Scheduled draft"', '"status":"published"'],
    },
    {
      name: 'the job that ran is no longer pending',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/schedule',
      status: 200,
      check: async (res, t) => {
        expect(res.body.docs.map((j: any) => j.id)).toEqual([ids.unpublish]);
        expect(await jobRow(t, ids.publish)).toMatchObject({ state: 'done', error: null });
      },
    },
    runNow('a run does not run a job twice', { ran: 0, failed: 0 }, {}),
    runNow('a scheduled unpublish sends only unpublish', { ran: 1, failed: 0 }, { unpublish: 1 }, (t) =>
      t.clock.advance(12 * HOUR),
    ),
    {
      name: 'the document was unpublished',
      method: 'GET',
      url: '/posts/1',
      status: 404,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    // A failing job is recorded with its error and does not stop the others.
    {
      name: 'a draft the runner will refuse to publish',
      as: 'editor',
      method: 'PATCH',
      url: '/posts/2?draft=true',
      body: { title: 'explode' },
      status: 200,
    },
    {
      name: 'its publish is scheduled',
      as: 'editor',
      method: 'POST',
      url: '/posts/2/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 201,
      check: remember('failing'),
    },
    {
      name: 'a new document saved as draft',
      as: 'editor',
      method: 'POST',
      url: '/posts?draft=true',
      body: { title: 'Fine' },
      status: 201,
      contains: ['"id":3'],
    },
    {
      name: 'its publish is scheduled at the same time',
      as: 'editor',
      method: 'POST',
      url: '/posts/3/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 201,
      check: remember('fine'),
    },
    runNow('one job fails, the other runs', { ran: 1, failed: 1 }, { update: 1, publish: 1 }, (t) =>
      t.clock.advance(2 * HOUR),
    ),
    {
      name: 'the failed job keeps its error',
      method: 'GET',
      url: '/posts/3',
      status: 200,
      contains: ['"title":"Fine"', '"status":"published"'],
      check: async (_res, t) => {
        expect(await jobRow(t, ids.failing)).toMatchObject({
          state: 'failed',
          error: 'refused by the beforeChange hook',
        });
        expect(await jobRow(t, ids.fine)).toMatchObject({ state: 'done' });
      },
    },
    runNow('a failed job is not retried', { ran: 0, failed: 0 }, {}),
    // Deleting a document cancels its jobs.
    {
      name: 'a job for a document about to be deleted',
      as: 'editor',
      method: 'POST',
      url: '/posts/3/schedule',
      body: (t: TestServer) => ({ action: 'unpublish', at: inFuture(HOUR)(t) }),
      status: 201,
      check: remember('orphan'),
    },
    {
      name: 'deleting the document',
      as: 'editor',
      method: 'DELETE',
      url: '/posts/3',
      status: 200,
      events: { delete: 1 },
      check: async (_res, t) => expect(await jobRow(t, ids.orphan)).toMatchObject({ state: 'cancelled' }),
    },
    runNow("the deleted document's job never runs", { ran: 0, failed: 0 }, {}, (t) => t.clock.advance(2 * HOUR)),
  ],
  async (t) => {
    const { token } = await t.user('editor');
    const call = (method: string, url: string, body?: unknown) => t.request(method, url, { token, body });
    await call('POST', '/posts', { title: 'Live', status: 'published' });
    await call('PATCH', '/posts/1?draft=true', { title: 'Scheduled draft' });
    await call('POST', '/posts', { title: 'Other', status: 'published' });
    await call('POST', '/pages', { title: 'Page' });
  },
);

runScenarios(
  'scheduling globals',
  draftsConfig,
  [
    {
      name: 'scheduling an unpublish of a global',
      as: 'editor',
      method: 'POST',
      url: '/globals/settings/schedule',
      body: (t: TestServer) => ({ action: 'unpublish', at: inFuture(HOUR)(t) }),
      status: 201,
      check: (res) => {
        expect(Object.keys(res.body.doc).sort()).toEqual([
          'action',
          'at',
          'createdAt',
          'global',
          'id',
          'parent',
          'state',
        ]);
        expect(res.body.doc).toMatchObject({ action: 'unpublish', global: 'settings', parent: null, state: 'pending' });
        ids.global = res.body.doc.id;
      },
    },
    {
      name: "a document's job is not the global's",
      as: 'editor',
      method: 'POST',
      url: '/posts/1/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 201,
      check: remember('post'),
    },
    {
      name: "cancelling a document's job under the global is a 404",
      as: 'editor',
      method: 'DELETE',
      url: () => `/globals/settings/schedule/${ids.post}`,
      status: 404,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'the global lists its pending jobs',
      as: 'editor',
      method: 'GET',
      url: '/globals/settings/schedule',
      status: 200,
      check: (res) => expect(res.body.docs.map((j: any) => j.id)).toEqual([ids.global]),
    },
    {
      name: 'scheduling on a global without drafts is a 400',
      as: 'editor',
      method: 'POST',
      url: '/globals/footer/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 400,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'scheduling on a global without login is a 401',
      method: 'GET',
      url: '/globals/settings/schedule',
      status: 401,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    runNow(
      'due jobs of globals and documents run in one pass',
      { ran: 2, failed: 0 },
      { unpublish: 1, update: 1, publish: 1 },
      (t) => t.clock.advance(2 * HOUR),
    ),
    {
      name: 'the global was unpublished',
      method: 'GET',
      url: '/globals/settings',
      status: 200,
      contains: ['"status":"draft"', '"siteName":"Site"'],
    },
    {
      name: 'a draft of the global, scheduled to publish',
      as: 'editor',
      method: 'POST',
      url: '/globals/settings?draft=true',
      body: { siteName: 'Later' },
      status: 200,
      events: { draft: 1 },
    },
    {
      name: 'scheduling the publish',
      as: 'editor',
      method: 'POST',
      url: '/globals/settings/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 201,
    },
    runNow(
      'the scheduled publish of a global publishes its pending draft',
      { ran: 1, failed: 0 },
      { update: 1, publish: 1 },
      (t) => t.clock.advance(HOUR),
    ),
    {
      name: 'the global is published with the draft',
      method: 'GET',
      url: '/globals/settings',
      status: 200,
      contains: ['"siteName":"Later"', '"status":"published"'],
    },
  ],
  async (t) => {
    const { token } = await t.user('editor');
    await t.request('POST', '/globals/settings', { token, body: { siteName: 'Site', status: 'published' } });
    await t.request('POST', '/posts?draft=true', { token, body: { title: 'Draft post' } });
  },
);
