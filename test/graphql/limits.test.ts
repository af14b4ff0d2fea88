/**
 * What one anonymous request may make the server do (docs/graphql.md, "Limits"): relationship fan-out is
 * costed by list sizes and refused before it runs, the related documents one request populates are
 * capped (GraphQL and REST `depth`/`joins`) with one error instead of a partial answer, documents that
 * would be slow to validate are refused by a cheap look first, large GraphQL pages work within the cost,
 * and an upload collection's `sizes` is typed per image size. Runs on the suite's engine.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { localAPI } from '../../src/local.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import { png } from '../support/media-fixtures.ts';

const ARTICLES = 100;
const LINKS = 10;
let t: TestServer;
let reads = 0;

beforeAll(async () => {
  t = await startTestServer({
    maxPopulatedDocuments: 1500,
    upload: {
      imageSizes: [
        { name: 'thumbnail', width: 16 },
        { name: 'cardWide', width: 32, height: 8 },
      ],
    },
    collections: [
      {
        slug: 'articles',
        access: { read: () => true },
        hooks: { afterRead: [({ doc }) => (reads++, doc)] },
        fields: [
          { name: 'slug', type: 'text' },
          { name: 'links', type: 'relationship', relationTo: 'articles', hasMany: true },
          { name: 'linkedFrom', type: 'join', collection: 'articles', on: 'links' },
        ],
      },
    ],
  });
  const api = localAPI(t.cms);
  const ids: number[] = [];
  for (let i = 0; i < ARTICLES; i++)
    ids.push((await api.create({ collection: 'articles', data: { slug: `a-${i}` } })).id as number);
  // Each article links to the next ten: every one is linked from ten others.
  for (let i = 0; i < ARTICLES; i++) {
    const links = Array.from({ length: LINKS }, (_, k) => ids[(i + k + 1) % ARTICLES]);
    await api.update({ collection: 'articles', id: ids[i], data: { links } });
  }
}, 120_000);
afterAll(() => t?.stop());

const gql = async (query: string, variables?: Record<string, unknown>) => {
  const res = await t.request('POST', '/graphql', { body: { query, variables } });
  expect(res.status).toBe(200);
  return res.body as { data: any; errors?: { message: string; extensions: { statusCode: number } }[] };
};
const nested = (levels: number) => `${'links { '.repeat(levels)}id${' }'.repeat(levels)}`;

describe('relationship fan-out', () => {
  test('the five-level fan-out over 100 articles is refused before anything is read', async () => {
    reads = 0;
    const body = await gql(`{ Articles(limit: 100) { docs { ${nested(5)} } } }`);
    expect(body.data).toBeNull();
    expect(body.errors![0].message).toContain('could answer too much');
    expect(body.errors![0].extensions.statusCode).toBe(400);
    expect(reads).toBe(0);
  });

  test('three levels (100,000 documents) are refused too, a limit given as a variable counts the same', async () => {
    const literal = await gql(`{ Articles(limit: 100) { docs { ${nested(3)} } } }`);
    expect(literal.errors![0].message).toContain('could answer too much');
    const variable = await gql(`query ($n: Int) { Articles(limit: $n) { docs { ${nested(3)} } } }`, { n: 100 });
    expect(variable.errors![0].message).toContain('could answer too much');
    expect(variable.data).toBeNull();
  });

  test('one level over 100 articles runs: 1,000 related documents, under the cap', async () => {
    const body = await gql(`{ Articles(limit: 100) { docs { slug ${nested(1)} } } }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.Articles.docs).toHaveLength(ARTICLES);
    expect(body.data.Articles.docs.every((d: any) => d.links.length === LINKS)).toBe(true);
  });

  test('past the populated-document cap the answer is one error, not the part that was read', async () => {
    // 20 × 10 + 20 × 10 × 10 = 2,200 related documents: within the cost measure, over the cap of 1,500.
    const body = await gql(`{ Articles(limit: 20) { docs { slug ${nested(2)} } } }`);
    expect(body.data).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0].message).toContain('more than 1500 related documents');
    expect(body.errors![0].extensions.statusCode).toBe(400);
  });

  test('joins count toward the cap in GraphQL', async () => {
    const body = await gql(`{ Articles(limit: 20) { docs { linkedFrom { docs { ${nested(1)} } } } } }`);
    // 20 × 10 joined documents, then 200 × 10 links: over 1,500.
    expect(body.data).toBeNull();
    expect(body.errors![0].message).toContain('more than 1500 related documents');
  });

  test('REST depth and joins draw on the same cap', async () => {
    const deep = await t.request('GET', '/articles?limit=100&depth=2&joins=false');
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].message).toContain('more than 1500 related documents');
    // A document shown under many others counts each time: 15 × 10 + 150 × 10 = 1,650, though only 25
    // distinct articles are read at the second level.
    const shared = await t.request('GET', '/articles?limit=15&depth=2&joins=false');
    expect(shared.status).toBe(400);
    const within = await t.request('GET', '/articles?limit=10&depth=2&joins=false');
    expect(within.status).toBe(200);
    expect(within.body.docs[0].links[0].links).toHaveLength(LINKS);
    const shallow = await t.request('GET', '/articles?limit=100&depth=1&joins=false');
    expect(shallow.status).toBe(200);
    expect(shallow.body.docs[0].links).toHaveLength(LINKS);
    // depth=1 with the join's ten documents each: 1,000 populated + 1,000 joined.
    const joined = await t.request('GET', '/articles?limit=100&depth=1');
    expect(joined.status).toBe(400);
    expect(joined.body.errors[0].message).toContain('more than 1500 related documents');
  });
});

describe('documents refused before validation', () => {
  const refused = async (query: string, message: string) => {
    const body = await gql(query);
    expect(body.data).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0].message).toContain(message);
    expect(body.errors![0].extensions.statusCode).toBe(400);
  };

  test('a 47 KB document of thousands of same-named fields, a fresh one each time', async () => {
    for (const fresh of ['a', 'b', 'c']) {
      const query = `{ Articles { docs { ${'slug '.repeat(9400)} } } } # ${fresh}`;
      expect(query.length).toBeGreaterThan(47_000);
      await refused(query, 'A selection set holds 9400 fields, at most 200');
    }
  });

  test('__typename 9,000 times is refused by size, 300 times by the selection bound', async () => {
    await refused(`{ ${'__typename '.repeat(9000)} }`, 'The query is too large');
    await refused(`{ ${'__typename '.repeat(300)} }`, 'A selection set holds 300 fields');
  });

  test('fields reached through fragments count toward the selection set they are spread in', async () => {
    // Validation compares the fields of inline fragments with their parent's, and every pair of named
    // fragments spread in one set: seconds of CPU for these, though no set holds more than one field itself.
    for (const fresh of ['a', 'b']) {
      await refused(
        `{ ${'... on Query { __typename } '.repeat(1600)} } # ${fresh}`,
        'A selection set holds 1600 fields, at most 200',
      );
      const spreads = Array.from({ length: 1100 }, (_, i) => `...F${i}`).join(' ');
      const fragments = Array.from({ length: 1100 }, (_, i) => `fragment F${i} on Query { __typename }`).join(' ');
      await refused(`{ ${spreads} } ${fragments} # ${fresh}`, 'A selection set holds 1100 fields, at most 200');
    }
    // One fragment spread twice is one set of fields, as validation sees it; fragments that spread each other
    // in a circle are left to validation, which names the circle.
    const twice = await gql(`{ ...A ...A } fragment A on Query { ${'__typename '.repeat(150)} }`);
    expect(twice).toEqual({ data: { __typename: 'Query' } });
    const circle = await gql('{ ...A } fragment A on Query { __typename ...B } fragment B on Query { ...A }');
    expect(circle.errors![0].message).toContain('Cannot spread fragment "A" within itself via "B"');
  });

  test('introspection fields count toward the size of the answer', async () => {
    // Without counting __typename this is 500,001 values; with it 1,000,001, over the default 1,000,000.
    await refused('{ Articles(limit: 500000) { docs { __typename } } }', 'could answer too much: 1000001 values');
  });

  test('too many tokens, too many fields in all', async () => {
    const values = Array.from({ length: 12_000 }, () => '1').join(' ');
    await refused(`{ Articles(where: { id: { in: [${values}] } }) { docs { id } } }`, 'more than 10000 tokens');
    const fragments = Array.from({ length: 15 }, (_, i) => `fragment F${i} on Article { ${'slug '.repeat(150)} }`).join(
      ' ',
    );
    await refused(`{ Articles { docs { id } } } ${fragments}`, 'The query selects 2253 fields, at most 2000');
  });

  test('a client introspection query still passes', async () => {
    const { getIntrospectionQuery } = await import('graphql');
    const body = await gql(getIntrospectionQuery());
    expect(body.errors).toBeUndefined();
    expect(body.data.__schema.queryType.name).toBe('Query');
  });
});

describe('whole lists (pagination false)', () => {
  const NOTES = 25;
  let small: TestServer;
  let rowsRead = 0;
  beforeAll(async () => {
    small = await startTestServer({
      maxPopulatedDocuments: 20,
      collections: [
        {
          slug: 'notes',
          access: { read: () => true },
          search: { fields: ['text'] },
          hooks: { afterRead: [({ doc }) => (rowsRead++, doc)] },
          fields: [
            { name: 'text', type: 'text' },
            { name: 'n', type: 'number' },
          ],
        },
      ],
    });
    const api = localAPI(small.cms);
    for (let n = 0; n < NOTES; n++) await api.create({ collection: 'notes', data: { text: `note ${n}`, n } });
  }, 120_000);
  afterAll(() => small?.stop());

  test('a whole list longer than the per-request document bound is refused before a row is read', async () => {
    rowsRead = 0;
    for (const url of ['/notes?pagination=false', '/notes?pagination=false&search=note&depth=0']) {
      const rest = await small.request('GET', url);
      expect(rest.status).toBe(400);
      expect(rest.body.errors[0].message).toContain(`would answer ${NOTES} documents, more than 20`);
    }
    const graphql = await small.request('POST', '/graphql', {
      body: { query: '{ Notes(pagination: false) { docs { text } totalDocs } }' },
    });
    expect(graphql.body.data).toEqual({ Notes: null });
    expect(graphql.body.errors).toHaveLength(1);
    expect(graphql.body.errors[0].message).toContain(`would answer ${NOTES} documents, more than 20`);
    expect(graphql.body.errors[0].extensions.statusCode).toBe(400);
    // A GraphQL page over REST's 100 has no fixed bound: the same bound holds for what it would answer.
    const page = await small.request('POST', '/graphql', {
      body: { query: '{ Notes(limit: 1000) { docs { text } } }' },
    });
    expect(page.body.data).toEqual({ Notes: null });
    expect(page.body.errors[0].message).toContain(`would answer ${NOTES} documents, more than 20`);
    expect(rowsRead).toBe(0);
  });

  test('a large GraphQL page of few matches runs; pages up to 100 are as in REST', async () => {
    const few = await small.request('POST', '/graphql', {
      body: { query: '{ Notes(limit: 1000, where: { n: { less_than: 20 } }) { docs { n } } }' },
    });
    expect(few.body.data.Notes.docs).toHaveLength(20);
    const page = await small.request('POST', '/graphql', { body: { query: '{ Notes(limit: 100) { docs { n } } }' } });
    expect(page.body.data.Notes.docs).toHaveLength(NOTES);
  });

  test('within the bound it answers every match; pages, signed-in callers and the Local API are not bounded by it', async () => {
    const rest = await small.request('GET', '/notes?pagination=false&where[n][less_than]=20&sort=n');
    expect(rest.status).toBe(200);
    expect(rest.body.docs).toHaveLength(20);
    expect(rest.body.totalDocs).toBe(20);
    const paged = await small.request('GET', '/notes?limit=100');
    expect(paged.body.docs).toHaveLength(NOTES);
    const local = await localAPI(small.cms).find({ collection: 'notes', pagination: false });
    expect(local.docs).toHaveLength(NOTES);
    const admin = await small.session('admin');
    const signedIn = await small.request('GET', '/notes?pagination=false', { token: admin.token });
    expect(signedIn.body.docs).toHaveLength(NOTES);
  });
});

describe('parsed queries kept between requests', () => {
  test('many distinct large queries do not stay in memory: what is kept is bounded by its text', async () => {
    // 44 KB, 9,000 list values: valid, so its plan would be kept; parsed it weighs about 2.3 MB.
    const values = Array.from({ length: 9000 }, (_, i) => i).join(' ');
    const query = (n: number) => `{ Articles(where: { id: { in: [${values}] } }) { docs { id } } } # ${n}`;
    Bun.gc(true);
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < 60; n++) {
      const body = await gql(query(n));
      expect(body.errors![0].message).toContain('takes at most 500 values');
    }
    Bun.gc(true);
    // 60 kept would be about 140 MB; the kept text (512 KB) holds about a dozen of them.
    const grown = (process.memoryUsage().heapUsed - before) / 1e6;
    expect(grown).toBeLessThan(60);
    // A small query asked again is still answered from its kept plan, with the same result.
    const small = '{ Articles(limit: 1) { docs { id } } }';
    expect(await gql(small)).toEqual(await gql(small));
  });
});

describe('large pages', () => {
  test('GraphQL takes limit: 1000 for a flat listing; REST keeps 1 to 100', async () => {
    // Each field is asked for once: the complexity stays that of a small query, whatever the limit.
    const body = await gql('{ Articles(limit: 1000, sort: "slug") { docs { slug } limit totalDocs } }');
    expect(body.errors).toBeUndefined();
    expect(body.data.Articles.docs).toHaveLength(ARTICLES);
    expect(body.data.Articles.limit).toBe(1000);
    const rest = await t.request('GET', '/articles?limit=1000');
    expect(rest.status).toBe(400);
  });

  test('pagination: false lists every document', async () => {
    const body = await gql('{ Articles(pagination: false) { docs { slug } totalDocs } }');
    expect(body.errors).toBeUndefined();
    expect(body.data.Articles.docs).toHaveLength(ARTICLES);
  });

  test('a page bigger than the cost allows is refused before running', async () => {
    const body = await gql('{ Articles(limit: 1000000) { docs { slug } } }');
    expect(body.errors![0].message).toContain('could answer too much');
  });
});

describe('Media sizes', () => {
  test('typed per configured image size, as Payload names them', async () => {
    const doc = await localAPI(t.cms).upload({ file: { data: await png(64, 32), name: 'photo.png' } });
    const body = await gql(
      `{ Media(id: ${doc.id}) { url sizes { thumbnail { url width height mimeType filesize filename } cardWide { width height } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const sizes = body.data.Media.sizes;
    expect(sizes.thumbnail).toMatchObject({ width: 16, height: 8, mimeType: 'image/png' });
    expect(sizes.thumbnail.url).toContain(`/api/cms/media/file/${sizes.thumbnail.filename}`);
    expect(typeof sizes.thumbnail.filesize).toBe('number');
    expect(sizes.cardWide).toEqual({ width: 32, height: 8 });
    const types = await gql('{ __type(name: "Media_Sizes") { fields { name type { name } } } }');
    expect(types.data.__type.fields).toEqual([
      { name: 'thumbnail', type: { name: 'Media_Sizes_Thumbnail' } },
      { name: 'cardWide', type: { name: 'Media_Sizes_CardWide' } },
    ]);
  });
});
