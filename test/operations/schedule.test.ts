/**
 * Scheduling (docs/drafts-and-versions.md) and scheduled jobs run by the job runner: time moves with the injectable clock,
 * never by sleeping. A due job runs through the same operations as REST, with the same events.
 */
import { expect } from 'bun:test';
import { runScenarios, type Scenario, type TestServer } from '../harness.ts';
import { draftsConfig, JOBS_SECRET } from '../fixtures/drafts-config.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const inFuture = (ms: number) => (t: TestServer) => new Date(t.clock.now() + ms).toISOString();
const cron = { authorization: `Bearer ${JOBS_SECRET}` };
/** Ids of the jobs and posts a row's setup made, for its request and check. */
const ids: Record<string, number> = {};
const editorToken = async (t: TestServer) => (await t.session('editor')).token;
/** Schedules `action` on `owner` (a document's or global's path) `ms` ahead; answers the job's id. */
const schedule = async (t: TestServer, owner: string, action: string, ms: number): Promise<number> => {
  const res = await t.request('POST', `${owner}/schedule`, {
    token: await editorToken(t),
    body: { action, at: inFuture(ms)(t) },
  });
  if (res.status !== 201) throw new Error(`scheduling ${action} on ${owner}: ${res.status} ${res.text}`);
  return res.body.doc.id;
};
const editorWrite = async (t: TestServer, method: string, url: string, body?: unknown) => {
  const res = await t.request(method, url, { token: await editorToken(t), body });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return res.body;
};
const runJobs = (t: TestServer) => t.request('POST', '/jobs/run', { headers: cron });
/** A publish of post 1's pending draft in 12 hours and an unpublish in 24. */
const twoJobsOnPost1 = async (t: TestServer) => {
  ids.publish = await schedule(t, '/posts/1', 'publish', 12 * HOUR);
  ids.unpublish = await schedule(t, '/posts/1', 'unpublish', 24 * HOUR);
};
/** Those two jobs, with the clock moved past the publish and the jobs run. */
const publishRan = async (t: TestServer) => {
  await twoJobsOnPost1(t);
  t.clock.advance(12 * HOUR + MINUTE);
  await runJobs(t);
};
/** A job on post 2, for the rows that cancel it. */
const jobOnPost2 = async (t: TestServer) => {
  ids.other = await schedule(t, '/posts/2', 'unpublish', 6 * HOUR);
};
/** Post 2's draft the runner refuses to publish and a new draft 'Fine', both to be published in an hour. */
const failingAndFine = async (t: TestServer) => {
  await editorWrite(t, 'PATCH', '/posts/2?draft=true', { title: 'explode' });
  ids.failing = await schedule(t, '/posts/2', 'publish', HOUR);
  ids.fineDoc = (await editorWrite(t, 'POST', '/posts?draft=true', { title: 'Fine' })).doc.id;
  ids.fine = await schedule(t, `/posts/${ids.fineDoc}`, 'publish', HOUR);
};
/** Those two jobs run: one failed, one done. */
const failingAndFineRan = async (t: TestServer) => {
  await failingAndFine(t);
  t.clock.advance(2 * HOUR);
  await runJobs(t);
};
/** A published post with an unpublish scheduled in an hour. */
const postWithUnpublish = async (t: TestServer) => {
  ids.orphanDoc = (await editorWrite(t, 'POST', '/posts', { title: 'Fine', status: 'published' })).doc.id;
  ids.orphan = await schedule(t, `/posts/${ids.orphanDoc}`, 'unpublish', HOUR);
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
      contains: ['"errors"', '\\"pages\\" does not have drafts enabled.'],
      events: { '*': 0 },
    },
    {
      name: 'scheduling for a missing document is a 404',
      as: 'editor',
      method: 'POST',
      url: '/posts/999/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 404,
      contains: ['"errors"', 'Document not found.'],
      events: { '*': 0 },
    },
    {
      name: 'scheduling without login is a 401',
      method: 'POST',
      url: '/posts/1/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'scheduling without update access is a 403',
      as: 'viewer',
      method: 'POST',
      url: '/posts/1/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'listing jobs without login is a 401',
      method: 'GET',
      url: '/posts/1/schedule',
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'listing jobs without update access is a 403',
      as: 'viewer',
      method: 'GET',
      url: '/posts/1/schedule',
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'a document may have several pending jobs',
      setup: async (t) => {
        ids.publish = await schedule(t, '/posts/1', 'publish', 12 * HOUR);
      },
      as: 'editor',
      method: 'POST',
      url: '/posts/1/schedule',
      body: (t: TestServer) => ({ action: 'unpublish', at: inFuture(24 * HOUR)(t) }),
      status: 201,
      events: { '*': 0 },
      contains: ['"action":"unpublish"', '"parent":1', '"state":"pending"'],
      check: async (res, t) => {
        const list = await t.request('GET', '/posts/1/schedule', { token: await editorToken(t) });
        expect(list.body.docs.map((j: any) => [j.id, j.action])).toEqual([
          [ids.publish, 'publish'],
          [res.body.doc.id, 'unpublish'],
        ]);
      },
    },
    {
      name: 'a job for another document',
      as: 'editor',
      method: 'POST',
      url: '/posts/2/schedule',
      body: (t: TestServer) => ({ action: 'unpublish', at: inFuture(6 * HOUR)(t) }),
      status: 201,
      events: { '*': 0 },
      contains: ['"action":"unpublish"', '"collection":"posts"', '"parent":2', '"state":"pending"'],
    },
    {
      name: 'pending jobs are listed soonest first',
      setup: twoJobsOnPost1,
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
      setup: jobOnPost2,
      as: 'editor',
      method: 'DELETE',
      url: () => `/posts/1/schedule/${ids.other}`,
      status: 404,
      contains: ['"errors"', 'Scheduled job not found.'],
      events: { '*': 0 },
    },
    {
      name: 'cancelling without update access is a 403',
      setup: jobOnPost2,
      as: 'viewer',
      method: 'DELETE',
      url: () => `/posts/2/schedule/${ids.other}`,
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'cancelling answers { doc: job, message }',
      setup: jobOnPost2,
      as: 'editor',
      method: 'DELETE',
      url: () => `/posts/2/schedule/${ids.other}`,
      status: 200,
      events: { '*': 0 },
      contains: ['"message":"Scheduled job cancelled."'],
      check: (res) =>
        expect(res.body.doc).toMatchObject({ id: ids.other, action: 'unpublish', parent: 2, state: 'cancelled' }),
    },
    {
      name: 'a cancelled job cannot be cancelled again',
      setup: async (t) => {
        await jobOnPost2(t);
        await editorWrite(t, 'DELETE', `/posts/2/schedule/${ids.other}`);
      },
      as: 'editor',
      method: 'DELETE',
      url: () => `/posts/2/schedule/${ids.other}`,
      status: 404,
      contains: ['"errors"', 'Scheduled job not found.'],
      events: { '*': 0 },
    },
    {
      name: 'a job id that is not a number is a 404',
      as: 'editor',
      method: 'DELETE',
      url: '/posts/2/schedule/abc',
      status: 404,
      contains: ['"errors"', 'Scheduled job not found.'],
      events: { '*': 0 },
    },
    {
      name: 'cancelled jobs are not listed',
      setup: async (t) => {
        await jobOnPost2(t);
        await editorWrite(t, 'DELETE', `/posts/2/schedule/${ids.other}`);
      },
      as: 'editor',
      method: 'GET',
      url: '/posts/2/schedule',
      status: 200,
      check: (res) => expect(res.body.docs).toEqual([]),
    },
    runNow('nothing is due yet', { ran: 0, failed: 0 }, {}, twoJobsOnPost1),
    runNow('a minute before its time the publish does not run', { ran: 0, failed: 0 }, {}, async (t) => {
      await twoJobsOnPost1(t);
      t.clock.advance(12 * HOUR - MINUTE);
    }),
    {
      name: 'the live document is still the old one',
      setup: async (t) => {
        await twoJobsOnPost1(t);
        t.clock.advance(12 * HOUR - MINUTE);
        await runJobs(t);
      },
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"title":"Live"'],
    },
    runNow(
      'when the clock reaches it the publish runs, with the events of a direct publish',
      { ran: 1, failed: 0 },
      { update: 1, publish: 1 },
      async (t) => {
        await twoJobsOnPost1(t);
        t.clock.advance(12 * HOUR + MINUTE);
      },
    ),
    {
      name: 'the scheduled publish published the pending draft',
      setup: publishRan,
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"title":"Scheduled draft"', '"status":"published"'],
    },
    {
      name: 'the job that ran is no longer pending',
      setup: publishRan,
      as: 'editor',
      method: 'GET',
      url: '/posts/1/schedule',
      status: 200,
      check: async (res, t) => {
        expect(res.body.docs.map((j: any) => j.id)).toEqual([ids.unpublish]);
        expect(await jobRow(t, ids.publish)).toMatchObject({ state: 'done', error: null });
      },
    },
    runNow('a run does not run a job twice', { ran: 0, failed: 0 }, {}, publishRan),
    runNow('a scheduled unpublish sends only unpublish', { ran: 1, failed: 0 }, { unpublish: 1 }, async (t) => {
      await publishRan(t);
      t.clock.advance(12 * HOUR);
    }),
    {
      name: 'the document was unpublished',
      setup: async (t) => {
        await publishRan(t);
        t.clock.advance(12 * HOUR);
        await runJobs(t);
      },
      method: 'GET',
      url: '/posts/1',
      status: 404,
      contains: ['"errors"', 'Document not found.'],
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
      events: { draft: 1 },
      contains: ['"id":2', '"title":"explode"', '"status":"draft"'],
    },
    {
      name: 'its publish is scheduled',
      setup: async (t) => {
        await editorWrite(t, 'PATCH', '/posts/2?draft=true', { title: 'explode' });
      },
      as: 'editor',
      method: 'POST',
      url: '/posts/2/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 201,
      events: { '*': 0 },
      contains: ['"action":"publish"', '"parent":2', '"state":"pending"'],
    },
    {
      name: 'a new document saved as draft',
      as: 'editor',
      method: 'POST',
      url: '/posts?draft=true',
      body: { title: 'Fine' },
      status: 201,
      events: { draft: 1 },
      contains: ['"id":3', '"title":"Fine"', '"status":"draft"'],
    },
    {
      name: 'its publish is scheduled at the same time',
      setup: async (t) => {
        ids.fineDoc = (await editorWrite(t, 'POST', '/posts?draft=true', { title: 'Fine' })).doc.id;
      },
      as: 'editor',
      method: 'POST',
      url: () => `/posts/${ids.fineDoc}/schedule`,
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 201,
      events: { '*': 0 },
      contains: ['"action":"publish"', '"state":"pending"'],
      check: (res) => expect(res.body.doc.parent).toBe(ids.fineDoc),
    },
    runNow('one job fails, the other runs', { ran: 1, failed: 1 }, { update: 1, publish: 1 }, async (t) => {
      await failingAndFine(t);
      t.clock.advance(2 * HOUR);
    }),
    {
      name: 'the failed job keeps its error',
      setup: failingAndFineRan,
      method: 'GET',
      url: () => `/posts/${ids.fineDoc}`,
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
    runNow('a failed job is not retried', { ran: 0, failed: 0 }, {}, failingAndFineRan),
    // Deleting a document cancels its jobs.
    {
      name: 'a job for a document about to be deleted',
      setup: async (t) => {
        ids.orphanDoc = (await editorWrite(t, 'POST', '/posts', { title: 'Fine', status: 'published' })).doc.id;
      },
      as: 'editor',
      method: 'POST',
      url: () => `/posts/${ids.orphanDoc}/schedule`,
      body: (t: TestServer) => ({ action: 'unpublish', at: inFuture(HOUR)(t) }),
      status: 201,
      events: { '*': 0 },
      contains: ['"action":"unpublish"', '"state":"pending"'],
      check: (res) => expect(res.body.doc.parent).toBe(ids.orphanDoc),
    },
    {
      name: 'deleting the document',
      setup: postWithUnpublish,
      as: 'editor',
      method: 'DELETE',
      url: () => `/posts/${ids.orphanDoc}`,
      status: 200,
      contains: ['"title":"Fine"', 'Deleted successfully.'],
      events: { delete: 1 },
      check: async (_res, t) => expect(await jobRow(t, ids.orphan)).toMatchObject({ state: 'cancelled' }),
    },
    runNow("the deleted document's job never runs", { ran: 0, failed: 0 }, {}, async (t) => {
      await postWithUnpublish(t);
      await editorWrite(t, 'DELETE', `/posts/${ids.orphanDoc}`);
      t.clock.advance(2 * HOUR);
    }),
  ],
  {
    async seed(t) {
      const { token } = await t.session('editor');
      const call = (method: string, url: string, body?: unknown) => t.request(method, url, { token, body });
      await call('POST', '/posts', { title: 'Live', status: 'published' });
      await call('PATCH', '/posts/1?draft=true', { title: 'Scheduled draft' });
      await call('POST', '/posts', { title: 'Other', status: 'published' });
      await call('POST', '/pages', { title: 'Page' });
    },
  },
);

/** The global unpublished by a scheduled job. */
const globalUnpublished = async (t: TestServer) => {
  await schedule(t, '/globals/settings', 'unpublish', HOUR);
  t.clock.advance(2 * HOUR);
  await runJobs(t);
};
/** Then a draft of it. */
const globalDraft = async (t: TestServer) => {
  await globalUnpublished(t);
  await editorWrite(t, 'POST', '/globals/settings?draft=true', { siteName: 'Later' });
};
/** Then its publish scheduled in an hour. */
const globalDraftScheduled = async (t: TestServer) => {
  await globalDraft(t);
  await schedule(t, '/globals/settings', 'publish', HOUR);
};

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
      events: { '*': 0 },
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
      },
    },
    {
      name: "a document's job is not the global's",
      as: 'editor',
      method: 'POST',
      url: '/posts/1/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 201,
      events: { '*': 0 },
      contains: ['"action":"publish"', '"collection":"posts"', '"parent":1'],
      notContains: ['"global"'],
    },
    {
      name: "cancelling a document's job under the global is a 404",
      setup: async (t) => {
        ids.post = await schedule(t, '/posts/1', 'publish', HOUR);
      },
      as: 'editor',
      method: 'DELETE',
      url: () => `/globals/settings/schedule/${ids.post}`,
      status: 404,
      contains: ['"errors"', 'Scheduled job not found.'],
      events: { '*': 0 },
    },
    {
      name: 'the global lists its pending jobs',
      setup: async (t) => {
        ids.global = await schedule(t, '/globals/settings', 'unpublish', HOUR);
        await schedule(t, '/posts/1', 'publish', HOUR);
      },
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
      contains: ['"errors"', '\\"footer\\" does not have drafts enabled.'],
      events: { '*': 0 },
    },
    {
      name: 'scheduling on a global without login is a 401',
      method: 'GET',
      url: '/globals/settings/schedule',
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    runNow(
      'due jobs of globals and documents run in one pass',
      { ran: 2, failed: 0 },
      { unpublish: 1, update: 1, publish: 1 },
      async (t) => {
        await schedule(t, '/globals/settings', 'unpublish', HOUR);
        await schedule(t, '/posts/1', 'publish', HOUR);
        t.clock.advance(2 * HOUR);
      },
    ),
    {
      name: 'the global was unpublished',
      setup: globalUnpublished,
      method: 'GET',
      url: '/globals/settings',
      status: 200,
      contains: ['"status":"draft"', '"siteName":"Site"'],
    },
    {
      name: 'a draft of the global, scheduled to publish',
      setup: globalUnpublished,
      as: 'editor',
      method: 'POST',
      url: '/globals/settings?draft=true',
      body: { siteName: 'Later' },
      status: 200,
      contains: ['"siteName":"Later"', '"status":"draft"'],
      events: { draft: 1 },
    },
    {
      name: 'scheduling the publish',
      setup: globalDraft,
      as: 'editor',
      method: 'POST',
      url: '/globals/settings/schedule',
      body: (t: TestServer) => ({ action: 'publish', at: inFuture(HOUR)(t) }),
      status: 201,
      events: { '*': 0 },
      contains: ['"action":"publish"', '"global":"settings"', '"state":"pending"'],
    },
    runNow(
      'the scheduled publish of a global publishes its pending draft',
      { ran: 1, failed: 0 },
      { update: 1, publish: 1 },
      async (t) => {
        await globalDraftScheduled(t);
        t.clock.advance(HOUR);
      },
    ),
    {
      name: 'the global is published with the draft',
      setup: async (t) => {
        await globalDraftScheduled(t);
        t.clock.advance(HOUR);
        await runJobs(t);
      },
      method: 'GET',
      url: '/globals/settings',
      status: 200,
      contains: ['"siteName":"Later"', '"status":"published"'],
    },
  ],
  {
    async seed(t) {
      const { token } = await t.session('editor');
      await t.request('POST', '/globals/settings', { token, body: { siteName: 'Site', status: 'published' } });
      await t.request('POST', '/posts?draft=true', { token, body: { title: 'Draft post' } });
    },
  },
);
