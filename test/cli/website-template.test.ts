/**
 * `cms init --template website`, as a newcomer runs it: `cms create-admin` before the first start, then
 * `cms`, which seeds the sample content and serves the site beside the admin. The GraphQL queries a
 * Payload website frontend sends (test/fixtures/payload-website-queries.ts) go through graphql-request
 * unchanged; the site's files are served at `/`; live preview works from the site's origin.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { GraphQLClient } from 'graphql-request';
import { DEFAULT_TEST_ENGINE } from '../harness.ts';
import { sanitizeConfig } from '../../src/config/sanitize.ts';
import fs from 'node:fs';
import path from 'node:path';
import { PAYLOAD_WEBSITE_QUERIES as Q, slugListing } from '../fixtures/payload-website-queries.ts';
import {
  initWebsite,
  serveWebsite,
  TEMPLATE_ADMIN,
  type ServedSite,
  type WebsiteProject,
} from '../support/website-template.ts';

const ADMIN = TEMPLATE_ADMIN;
let project: WebsiteProject;
let site: string;
let server: ServedSite;
let api: string;
let client: GraphQLClient;
let made: { stdout: string; exitCode: number };
let token = '';

beforeAll(async () => {
  // The admin is made before the server ever started: the sample content must still come.
  project = await initWebsite();
  ({ site, init: made } = project);
  server = await serveWebsite(site, project.env);
  api = `${server.url}/api/cms`;
  client = new GraphQLClient(`${api}/graphql`);
  const login = await fetch(`${api}/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  token = ((await login.json()) as { token: string }).token;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await project?.remove();
});

const byName = <T>(list: T[] | null | undefined, key: keyof T) => (list ?? []).map((item) => item[key]);

describe('cms init --template website', () => {
  test('writes the config, the seed and the site; create-admin before the first start still gets the sample content', () => {
    expect(made.exitCode).toBe(0);
    expect(made.stdout).toContain('sample content');
    expect(made.stdout).toContain('the site at http://127.0.0.1:3000/ and the admin at http://127.0.0.1:3000/admin');
    expect(fs.readdirSync(site).sort()).toEqual(
      expect.arrayContaining(['.gitignore', 'cms.config.ts', 'cms.seed.ts', 'site']),
    );
    expect(fs.readdirSync(path.join(site, 'site')).sort()).toEqual(['index.html', 'site.css', 'site.js']);
    expect(server.out()).toContain('added the sample content');
    expect(server.out()).toMatch(
      DEFAULT_TEST_ENGINE === 'postgres' ? / · database cms_test@/ : / · database \S+cms\.db/,
    );
    expect(server.out()).toContain(`site at ${server.url}/ (the files in ${path.join(site, 'site')})`);
    // The site and the admin on one host name: the one the server prints.
    expect(server.url).toStartWith('http://127.0.0.1:');
  });
});

test('init overwrites none of the files a folder already has', () => {
  const folder = path.join(project.dir, 'mine');
  fs.mkdirSync(path.join(folder, 'site'), { recursive: true });
  fs.writeFileSync(path.join(folder, 'site', 'index.html'), 'my own site');
  const again = Bun.spawnSync(
    [process.execPath, path.join(import.meta.dir, '../../src/cli/main.ts'), 'init', folder, '--template', 'website'],
    { stdout: 'pipe', stderr: 'pipe' },
  );
  expect(again.exitCode).not.toBe(0);
  expect(again.stderr.toString()).toContain(`${path.join(folder, 'site', 'index.html')} already exists`);
  expect(fs.readFileSync(path.join(folder, 'site', 'index.html'), 'utf8')).toBe('my own site');
  expect(fs.existsSync(path.join(folder, 'cms.config.ts'))).toBe(false);
});

describe("Payload's website frontend queries, unchanged, through graphql-request", () => {
  test('a page by slug: hero with links and media, every layout block, meta', async () => {
    const { Pages } = await client.request<any>(Q.PAGE!, { slug: 'home', draft: false });
    const page = Pages.docs[0];
    expect(page.title).toBe('Home');
    expect(page.hero.type).toBe('highImpact');
    expect(page.hero.media.mimeType).toBe('image/png');
    expect(page.hero.richText.root.children[0].tag).toBe('h1');
    const [internal, custom] = page.hero.links.map((row: { link: unknown }) => row.link);
    expect(internal).toMatchObject({ type: 'reference', label: 'Read the posts', appearance: 'default' });
    expect(internal.reference).toEqual({ relationTo: 'pages', value: { slug: 'posts' } });
    expect(custom).toMatchObject({ type: 'custom', url: '/admin', appearance: 'outline', reference: null });
    expect(byName(page.layout, 'blockType')).toEqual(['content', 'mediaBlock', 'archive', 'archive', 'cta']);
    const [content, media, byCollection, selection, cta] = page.layout;
    expect(content.columns[1]).toMatchObject({ size: 'half', enableLink: true });
    // An internal link to a post: the frontend's fragment asks only for pages, as Payload's does.
    expect(content.columns[1].link.reference.relationTo).toBe('posts');
    expect(media).toMatchObject({ position: 'default', invertBackground: null });
    expect(media.media.width).toBeGreaterThan(0);
    expect(byCollection).toMatchObject({ populateBy: 'collection', relationTo: 'posts', limit: 3 });
    expect(byName(byCollection.categories, 'title')).toEqual(['News', 'Guides']);
    expect(byCollection.categories[0].breadcrumbs[0].label).toBe('News');
    expect(selection.selectedDocs.map((d: any) => [d.relationTo, d.value.title])).toEqual([
      ['posts', 'Welcome to your new site'],
      ['projects', 'A sample project'],
    ]);
    expect(cta.links[0].link.label).toBe('Open the admin');
    expect(page.meta.title).toBe('Home');
    expect(page.meta.image.filename).toMatch(/\.png$/);
  });

  test('a post by slug: categories, authors, related posts, meta; premium content only for readers signed in', async () => {
    const { Posts } = await client.request<any>(Q.POST!, { slug: 'writing-in-rich-text', draft: false });
    const post = Posts.docs[0];
    expect(post.title).toBe('Writing in rich text');
    expect(byName(post.categories, 'title')).toEqual(['Guides']);
    expect(post.populatedAuthors).toEqual([{ id: expect.any(String), name: 'Ada Admin' }]);
    expect(Date.parse(post.publishedAt)).toBeGreaterThan(0);
    expect(post.relatedPosts.map((p: any) => p.slug)).toEqual(['welcome-to-your-new-site']);
    expect(post.relatedPosts[0].meta.image.alt).toBe('A teal cover image');
    expect(post.meta.description).toBe('Markdown shortcuts in the rich-text editor.');
    expect(post.hero.type).toBe('lowImpact');
    const anonymous = await client.request<any>(Q.POST_PREMIUM_CONTENT!, { slug: 'welcome-to-your-new-site' });
    expect(anonymous.Posts.docs[0].premiumContent).toBeNull();
    const signedIn = await client.request<any>(
      Q.POST_PREMIUM_CONTENT!,
      { slug: 'welcome-to-your-new-site' },
      { authorization: `Bearer ${token}` },
    );
    expect(byName(signedIn.Posts.docs[0].premiumContent, 'blockType')).toEqual(['cta']);
  });

  test('a project by slug, with its hero and layout', async () => {
    const { Projects } = await client.request<any>(Q.PROJECT!, { slug: 'a-sample-project', draft: false });
    expect(Projects.docs[0]).toMatchObject({ title: 'A sample project', hero: { type: 'mediumImpact' } });
    expect(byName(Projects.docs[0].layout, 'blockType')).toEqual(['content']);
  });

  test('header, footer and settings: internal links resolve to the slugs the frontend builds hrefs from', async () => {
    const { Header } = await client.request<any>(Q.HEADER!);
    expect(Header.navItems.map((n: any) => [n.link.label, n.link.reference.value.slug])).toEqual([
      ['Home', 'home'],
      ['Posts', 'posts'],
      ['Contact', 'contact'],
    ]);
    const { Footer } = await client.request<any>(Q.FOOTER!);
    expect(Footer.navItems.map((n: any) => n.link.label)).toEqual(['Posts', 'Contact', 'Admin']);
    expect(Footer.navItems[2].link).toMatchObject({ type: 'custom', url: '/admin', newTab: true });
    const { Settings } = await client.request<any>(Q.SETTINGS!);
    expect(Settings).toEqual({ postsPage: { slug: 'posts' }, projectsPage: null });
  });

  test('comments of a post and of a user, and the signed-in user with roles', async () => {
    const posts = await client.request<any>(slugListing('Posts', 100));
    expect(posts.Posts.docs.length).toBe(3);
    const { Posts } = await client.request<any>(
      `{ Posts(where: { slug: { equals: "welcome-to-your-new-site" } }) { docs { id } } }`,
    );
    const byDoc = await client.request<any>(Q.COMMENTS_BY_DOC!, { doc: Posts.docs[0].id });
    expect(byDoc.Comments.docs).toEqual([
      expect.objectContaining({
        _status: 'published',
        comment: 'Looks good!',
        populatedUser: { id: '0', name: 'A reader' },
      }),
    ]);
    expect(byDoc.Comments.docs[0].doc.slug).toBe('welcome-to-your-new-site');
    const byUser = await client.request<any>(Q.COMMENTS_BY_USER!, { user: 1 });
    expect(byUser.Comments.docs).toEqual([]);
    const me = await client.request<any>(Q.ME!, {}, { authorization: `Bearer ${token}` });
    expect(me.meUser.user).toMatchObject({ email: ADMIN.email, name: ADMIN.name, roles: ['admin'] });
  });

  test('slug listings for static generation within 100', async () => {
    for (const plural of ['Pages', 'Posts', 'Projects']) {
      const data = await client.request<any>(slugListing(plural, 100));
      expect(data[plural].docs.every((d: { slug: string }) => d.slug.length > 0)).toBe(true);
    }
  });

  // Payload's frontend asks for 300 (and larger sites for 1000): GraphQL takes limits past REST's 100 within
  // its cost model (docs/graphql.md, "Limits").
  test('slug listings as Payload sends them (limit 300) and limit 1000', async () => {
    for (const name of ['PAGES', 'POSTS', 'PROJECTS']) await client.request(Q[name]!);
    const data = await client.request<any>(slugListing('Posts', 1000));
    expect(data.Posts.docs.length).toBe(3);
  });
});

describe('the site beside the admin', () => {
  test('serves its files at /, routes in the browser, and keeps the API and the admin as they were', async () => {
    const home = await fetch(`${server.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toContain('text/html');
    expect(await home.text()).toContain('<script type="module" src="/site.js">');
    const deep = await fetch(`${server.url}/posts/welcome-to-your-new-site`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('/site.js');
    const js = await fetch(`${server.url}/site.js`);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect(await js.text()).toContain('payload-live-preview');
    // Nothing outside the folder, nothing hidden in it, no guessing of missing files.
    for (const p of ['/%2e%2e/cms.config.ts', '/..%2fcms.config.ts', '/.gitignore', '/missing.png'])
      expect((await fetch(`${server.url}${p}`)).status).toBe(404);
    const unknown = await fetch(`${api}/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ errors: [expect.objectContaining({ message: expect.any(String) })] });
    expect(await (await fetch(`${server.url}/admin`)).text()).not.toContain('/site.js');
  });

  test('publicDir resolves beside the config, and refuses to take the root from the API or the admin', () => {
    const at = { configPath: '/srv/cms.config.ts', rootDir: '/srv' };
    expect(sanitizeConfig({ publicDir: 'site' }, at).publicDir).toBe('/srv/site');
    expect(sanitizeConfig({}, at).publicDir).toBeNull();
    expect(() => sanitizeConfig({ publicDir: 'site', routes: { admin: '/' } }, at)).toThrow(/publicDir/);
    expect(() => sanitizeConfig({ publicDir: 'site', routes: { api: '/' } }, at)).toThrow(/publicDir/);
  });

  test('live preview points at the site on the same host, and the site merges the editor’s values with the cookie', async () => {
    const headers = { cookie: `cms-session=${token}`, 'content-type': 'application/json' };
    const pages = await (await fetch(`${api}/pages?where[slug][equals]=contact&depth=0`)).json();
    const id = pages.docs[0].id;
    const csrf = await fetch(`${api}/users/me`, { headers });
    const csrfToken = ((await csrf.json()) as { csrfToken?: string }).csrfToken ?? '';
    const preview = await fetch(`${api}/pages/${id}/preview`, {
      method: 'POST',
      headers: { ...headers, 'x-csrf-token': csrfToken, origin: server.url },
      body: JSON.stringify({ title: 'Contact us' }),
    });
    expect(preview.status).toBe(200);
    const { url } = (await preview.json()) as { url: string };
    // Relative: it opens on whatever host the admin was opened under.
    expect(url).toMatch(/^\/contact\?preview=/);
    expect((await fetch(new URL(url, server.url))).status).toBe(200);
    // What site.js does with a live-preview message: the method-override read, from its own origin.
    const merged = await fetch(`${api}/pages/${id}`, {
      method: 'POST',
      headers: { ...headers, origin: server.url, 'x-payload-http-method-override': 'GET' },
      body: JSON.stringify({ data: { title: 'Contact us, now' }, depth: 2, draft: true }),
    });
    expect(merged.status).toBe(200);
    expect(((await merged.json()) as { title: string }).title).toBe('Contact us, now');
  });

  test('a frontend of its own (SITE_URL) is allowed by CORS and trusted for cookie writes', async () => {
    const own = 'http://localhost:4321';
    const other = await serveWebsite(site, { ...project.env, SITE_URL: own });
    try {
      // A second start over the same database leaves the content alone.
      expect(other.out()).not.toContain('sample content');
      const otherApi = `${other.url}/api/cms`;
      const preflight = await fetch(`${otherApi}/pages`, {
        method: 'OPTIONS',
        headers: { origin: own, 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBe(own);
      expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
      const login = await fetch(`${otherApi}/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: own },
        body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
      });
      const session = (await login.json()) as { token: string; csrfToken: string };
      const write = (origin: string) =>
        fetch(`${otherApi}/categories`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            cookie: `cms-session=${session.token}`,
            'x-csrf-token': session.csrfToken,
            origin,
          },
          body: JSON.stringify({ title: `From ${origin}` }),
        });
      expect((await write(own)).status).toBe(201);
      expect((await write('http://elsewhere.example')).status).toBe(403);
      const preview = await fetch(`${otherApi}/posts/1/preview`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(((await preview.json()) as { url: string }).url).toStartWith(
        `${own}/posts/welcome-to-your-new-site?preview=`,
      );
    } finally {
      await other.stop();
    }
  });
});

describe('what the template shows off', () => {
  const as = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

  test('slugs made from the title and kept when the title changes; search; the trash; a second locale', async () => {
    const made = await fetch(`${api}/posts?draft=true`, {
      method: 'POST',
      headers: as(),
      body: JSON.stringify({ title: 'Grüße aus Köln!', content: 'Hallo.' }),
    });
    expect(made.status).toBe(201);
    const { doc } = (await made.json()) as { doc: { id: number; slug: string } };
    expect(doc.slug).toBe('grusse-aus-koln');
    const renamed = await fetch(`${api}/posts/${doc.id}?draft=true`, {
      method: 'PATCH',
      headers: as(),
      body: JSON.stringify({ title: 'Another title' }),
    });
    expect(((await renamed.json()) as { doc: { slug: string } }).doc.slug).toBe('grusse-aus-koln');

    const found = (await (await fetch(`${api}/posts?search=shortcut&depth=0`)).json()) as { docs: { slug: string }[] };
    expect(found.docs.map((d) => d.slug)).toEqual(['writing-in-rich-text']);
    const across = (await (await fetch(`${api}/search?q=contact`, { headers: as() })).json()) as {
      docs: { collection: string }[];
    };
    expect(across.docs.map((d) => d.collection)).toContain('pages');

    const removed = await fetch(`${api}/posts/${doc.id}`, { method: 'DELETE', headers: as() });
    expect(removed.status).toBe(200);
    const trash = (await (
      await fetch(`${api}/posts?trash=true&where[deletedAt][exists]=true`, { headers: as() })
    ).json()) as {
      docs: { id: number }[];
    };
    expect(trash.docs.map((d) => d.id)).toContain(doc.id);

    const german = (await (await fetch(`${api}/pages?where[slug][equals]=home&locale=de&depth=0`)).json()) as {
      docs: { title: string }[];
    };
    expect(german.docs[0]!.title).toBe('Startseite');
  });

  test('autosave, folders, labels by language and select options with labels reach the admin', async () => {
    const res = await fetch(`${api}/_admin/config`, { headers: as() });
    expect(res.status).toBe(200);
    const config = (await res.json()) as any;
    const text = JSON.stringify(config);
    const pages = config.collections.find((c: { slug: string }) => c.slug === 'pages');
    expect(pages.autosave ?? pages.drafts?.autosave ?? pages.versions?.drafts?.autosave).toBeTruthy();
    expect(text).toContain('"de":"Seite"');
    expect(text).toContain('"label":{"en":"High impact","de":"Groß"}');
    expect(text).toContain('payload-folders');
    const folders = (await (await fetch(`${api}/payload-folders?depth=0&sort=id`, { headers: as() })).json()) as {
      docs: { name: string }[];
    };
    expect(folders.docs.map((f) => f.name)).toEqual(['Site images', 'Company']);
    const trashed = (await (
      await fetch(`${api}/pages?trash=true&where[deletedAt][exists]=true&depth=0`, { headers: as() })
    ).json()) as { docs: { title: string }[] };
    expect(trashed.docs.map((d) => d.title)).toEqual(['Old offers']);
  });
});
