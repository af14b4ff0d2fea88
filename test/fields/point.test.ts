/** Point fields: `[lng, lat]` in range, and `near` filtering and ordering by distance on both engines. */
import { runScenarios, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { expect } from 'bun:test';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
// A `defaultSort` of its own: `near` still orders by distance when the request gives no sort.
const config: UserConfig = {
  collections: [
    {
      slug: 'places',
      access: open,
      defaultSort: '-name',
      fields: [
        { name: 'name', type: 'text' },
        { name: 'loc', type: 'point' },
      ],
    },
  ],
};

async function seed(t: TestServer) {
  // Berlin, Potsdam (~27 km from Berlin), Hamburg (~255 km), Munich (~505 km), and one without a point.
  for (const [name, loc] of [
    ['Munich', [11.582, 48.1351]],
    ['Berlin', [13.405, 52.52]],
    ['Hamburg', [9.9937, 53.5511]],
    ['Potsdam', [13.0645, 52.3906]],
    ['Nowhere', null],
  ] as const) {
    await t.request('POST', '/places', { body: { name, loc } });
  }
}
const names = (res: { body: { docs: { name: string }[] } }) => res.body.docs.map((d) => d.name);

runScenarios(
  'point fields',
  config,
  [
    {
      name: 'a point is stored as [lng, lat]',
      method: 'GET',
      url: '/places?where[name][equals]=Berlin',
      status: 200,
      contains: ['"loc":[13.405,52.52]'],
    },
    {
      name: 'near within 300 km, nearest first',
      method: 'GET',
      url: '/places?where[loc][near]=13.4,52.5,300000',
      status: 200,
      check: (res) => expect(names(res)).toEqual(['Berlin', 'Potsdam', 'Hamburg']),
    },
    {
      name: 'near with a minimum distance',
      method: 'GET',
      url: '/places?where[loc][near]=13.4,52.5,600000,100000',
      status: 200,
      check: (res) => expect(names(res)).toEqual(['Hamburg', 'Munich']),
    },
    {
      name: 'an explicit sort beats distance order',
      method: 'GET',
      url: '/places?where[loc][near]=13.4,52.5,300000&sort=name',
      status: 200,
      check: (res) => expect(names(res)).toEqual(['Berlin', 'Hamburg', 'Potsdam']),
    },
    {
      name: 'without near the collection order holds',
      method: 'GET',
      url: '/places?where[loc][exists]=true',
      status: 200,
      check: (res) => expect(names(res)).toEqual(['Potsdam', 'Munich', 'Hamburg', 'Berlin']),
    },
    {
      name: 'near inside and',
      method: 'GET',
      url: '/places?where[and][0][loc][near]=11.5,48.1,10000',
      status: 200,
      check: (res) => expect(names(res)).toEqual(['Munich']),
    },
    {
      name: 'a longitude out of range is a 400',
      method: 'POST',
      url: '/places',
      body: { loc: [181, 0] },
      status: 400,
      contains: ['"field":"loc"', 'The longitude must be between -180 and 180.'],
    },
    {
      name: 'a latitude out of range is a 400',
      method: 'POST',
      url: '/places',
      body: { loc: [0, -91] },
      status: 400,
      contains: ['"field":"loc"', 'The latitude must be between -90 and 90.'],
    },
    {
      name: 'a point must be two numbers',
      method: 'POST',
      url: '/places',
      body: { loc: [1, 'x'] },
      status: 400,
      contains: ['"field":"loc"', 'A point is a list of two numbers'],
    },
    {
      name: 'a malformed near is a 400',
      method: 'GET',
      url: '/places?where[loc][near]=abc',
      status: 400,
      contains: ['"field":"loc"', '\\"near\\" on \\"loc\\" takes <longitude>,<latitude>'],
    },
    {
      name: 'near on a non-point field is a 400',
      method: 'GET',
      url: '/places?where[name][near]=1,2,3',
      status: 400,
      contains: ['"field":"name"', 'works only on point fields'],
    },
    {
      name: 'exists on a point',
      method: 'GET',
      url: '/places?where[loc][exists]=false',
      status: 200,
      check: (res) => expect(names(res)).toEqual(['Nowhere']),
    },
  ],
  { seed },
);
