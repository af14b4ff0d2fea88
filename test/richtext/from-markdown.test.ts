// Runs once (on the SQLite pass): conversions of rich text, which the engine plays no part in.
/**
 * Markdown → rich text (src/richtext/from-markdown.ts) and front matter (src/richtext/front-matter.ts):
 * Markdown and MDX files become the stored Lexical JSON; what has no node keeps its text and is counted in
 * `lossy`; code is text, so an image written in a code block is no image. The cases are pure; the files of
 * test/fixtures/markdown are also stored through the API and read back as HTML with the same structure.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { htmlToLexical } from '../../src/richtext/from-html.ts';
import { asHTMLShows, type RoundTrip, roundTripServer } from '../support/richtext-round-trip.ts';
import {
  type ConvertOptions,
  markdownRefs,
  markdownToLexical,
  markdownToRichText,
  splitFrontMatter,
} from '../../src/richtext/from-markdown.ts';
import { shapes } from '../fixtures/richtext/shape.ts';

const media: ConvertOptions = {
  imageTarget: (src) => (src.includes('missing') ? null : { relationTo: 'media', value: src.length }),
  linkTarget: (href) => (href.endsWith('.md') ? { relationTo: 'posts', value: href.length } : null),
};
const convert = (markdown: string, options: ConvertOptions = media) => {
  const { value, lossy } = markdownToLexical(markdown, options);
  return { blocks: shapes(value), lossy: Object.fromEntries(lossy.map((l) => [l.what, l.count])) };
};

describe('Markdown and its nodes', () => {
  test('headings, paragraphs, formats, hard breaks, rules', () => {
    expect(
      convert('# One\n\nSome **bold**, *it*, ~~gone~~ and `code`.  \nNext line\n\n---\n\n###### Six').blocks,
    ).toEqual([
      ['h1', 'One'],
      [
        'paragraph',
        'Some ',
        ['bold', 1],
        ', ',
        ['it', 2],
        ', ',
        ['gone', 4],
        ' and ',
        ['code', 16],
        '.',
        'BR',
        'Next line',
      ],
      'HR',
      ['h6', 'Six'],
    ]);
  });
  test('nested lists as Lexical stores them, loose items joined by line breaks, task lists', () => {
    expect(convert('3. three\n\n   more\n   - a\n     1. deep\n4. four\n\n- [x] done\n- [ ] todo').blocks).toEqual([
      [
        'number from 3',
        ['3', 'three', 'BR', 'more'],
        ['4', ['bullet', ['1 >1', 'a'], ['2 >1', ['number', ['1 >2', 'deep']]]]],
        ['4', 'four'],
      ],
      ['check', ['1 [x]', 'done'], ['2 [ ]', 'todo']],
    ]);
  });
  test('links: external and internal to an imported document', () => {
    expect(convert('[out](https://x.test/) and [in **b**](../other.md)').blocks).toEqual([
      ['paragraph', ['link https://x.test/', 'out'], ' and ', ['link posts/11', 'in ', ['b', 1]]],
    ]);
  });
  test('quotes hold their paragraphs as lines', () => {
    expect(convert('> one\n>\n> two').blocks).toEqual([['quote', 'one', 'BR', 'two']]);
  });
  test('a list in a quote becomes lines of its items, counted', () => {
    expect(convert('> q\n>\n> 1. a\n>    - b')).toEqual({
      blocks: [['quote', 'q', 'BR', '1. a', 'BR', '• b']],
      lossy: { 'list inside a quote': 1 },
    });
  });
  test('a fenced code block is code-formatted text: an image or link in it stays text', () => {
    const md = '```md\n![chart](chart.png)\n\n[x](y)\n```';
    expect(convert(md)).toEqual({
      blocks: [['paragraph', ['![chart](chart.png)', 16], 'BR', 'BR', ['[x](y)', 16]]],
      lossy: {},
    });
    expect(markdownRefs(md)).toEqual({ links: [], images: [] });
  });
});

describe('images', () => {
  test('an image with a media document is an upload node between the paragraph parts', () => {
    expect(convert('Before ![An A](./a.jpg) after').blocks).toEqual([
      ['paragraph', 'Before '],
      'upload media/7 "An A"',
      ['paragraph', ' after'],
    ]);
  });
  test('an image without one is a link to its file, counted', () => {
    expect(convert('![chart](missing.png)')).toEqual({
      blocks: [['paragraph', ['link missing.png', 'chart']]],
      lossy: { 'image without a media document': 1 },
    });
  });
  test('a linked image: to its own file nothing is lost, elsewhere the link is counted', () => {
    expect(convert('[![big](small.png)](big.png) [![badge](ci.svg)](https://ci.test/)')).toEqual({
      blocks: ['upload media/9 "big"', 'upload media/6 "badge"'],
      lossy: { 'link on an image': 1 },
    });
  });
  test('a link the HTML output would never render keeps only its text', () => {
    expect(convert('[click](javascript:alert(1)) here')).toEqual({
      blocks: [['paragraph', 'click here']],
      lossy: { 'unsafe link': 1 },
    });
  });
  test('an image in a list item is placed right after the list', () => {
    expect(convert('- a ![i](i.png)\n- b').blocks).toEqual([['bullet', ['1', 'a '], ['2', 'b']], 'upload media/5 "i"']);
  });
});

describe('what has no node keeps its text and is counted', () => {
  test('tables become lines of cells', () => {
    expect(convert('| a | b |\n|---|---|\n| [1](x.md) | **2** |')).toEqual({
      blocks: [
        ['paragraph', 'a | b'],
        ['paragraph', ['link posts/4', '1'], ' | ', ['2', 1]],
      ],
      lossy: { table: 1 },
    });
  });
  test('raw HTML: blocks read by the HTML reader, format tags and line breaks kept inline', () => {
    expect(
      convert(
        '<div class="note">\n<p>Raw <b>bold</b></p>\n</div>\n\nH<sub>2</sub>O <u>under</u><br>next <span>s</span>',
      ),
    ).toEqual({
      blocks: [
        ['paragraph', 'Raw ', ['bold', 1]],
        ['paragraph', 'H', ['2', 32], 'O ', ['under', 8], 'BR', 'next s'],
      ],
      lossy: { 'raw HTML': 2 },
    });
  });
  test('raw HTML whose every element has a node is not counted', () => {
    expect(convert('<p><img src="a.png" alt="A"> <b>b</b></p>')).toEqual({
      blocks: ['upload media/5 "A"', ['paragraph', ['b', 1]]],
      lossy: {},
    });
  });
  test('an HTML comment is dropped without a count', () => {
    expect(convert('a\n\n<!-- note -->\n\nb')).toEqual({
      blocks: [
        ['paragraph', 'a'],
        ['paragraph', 'b'],
      ],
      lossy: {},
    });
  });
  test('MDX: imports and exports are dropped, components keep their text; both counted', () => {
    const mdx = [
      "import Chart from '../components/Chart.astro';",
      "import { Tabs,\n  Tab } from './tabs'",
      'export const meta = { draft: false }',
      '# Title',
      '<Chart data={points} />',
      'Text with <Badge>new</Badge> inside.',
      '<Tabs>\n\n## Inside\n\n</Tabs>',
      'import duties are text here, not code.',
    ].join('\n\n');
    expect(convert(mdx)).toEqual({
      blocks: [
        ['h1', 'Title'],
        ['paragraph', 'Text with new inside.'],
        ['h2', 'Inside'],
        ['paragraph', 'import duties are text here, not code.'],
      ],
      lossy: { 'MDX import or export': 3, 'MDX component': 3 },
    });
  });
});

describe('Markdown written to the API', () => {
  test('a paragraph starting with "import" stays text unless MDX is read', () => {
    const md = "import x from './x'\n\ntext";
    expect(convert(md, { mdx: false }).blocks).toEqual([
      ['paragraph', "import x from './x'"],
      ['paragraph', 'text'],
    ]);
    expect(shapes(markdownToRichText(md))).toEqual(convert(md, { mdx: false }).blocks);
  });
});

describe('markdownRefs', () => {
  test('links and images once each, from text, tables, lists and raw HTML; code excluded', () => {
    const md = '[a](/a) ![i](i.png)\n\n- [a](/a)\n\n| ![t](t.png) |\n|---|\n\n<img src="h.png" alt="H">\n\n`[c](/c)`';
    expect(markdownRefs(md)).toEqual({
      links: ['/a'],
      images: [
        { src: 'i.png', alt: 'i' },
        { src: 't.png', alt: 't' },
        { src: 'h.png', alt: 'H' },
      ],
    });
  });
});

describe('splitFrontMatter', () => {
  test('YAML front matter typed by YAML, the body after it', () => {
    const text =
      '---\ntitle: "Hello: world"\ndate: 2024-05-01\ncount: 3\ndraft: true\ntags: [a, b]\nhero: ./hero.jpg\n---\n# Body\n';
    expect(splitFrontMatter(text)).toEqual({
      data: { title: 'Hello: world', date: '2024-05-01', count: 3, draft: true, tags: ['a', 'b'], hero: './hero.jpg' },
      body: '# Body\n',
    });
  });
  test('CRLF line ends, a byte order mark, "..." as the closing line, TOML between +++', () => {
    expect(splitFrontMatter('\uFEFF---\r\na: 1\r\n...\r\nbody')).toEqual({ data: { a: 1 }, body: 'body' });
    expect(splitFrontMatter('+++\ntitle = "T"\n+++\nbody')).toEqual({ data: { title: 'T' }, body: 'body' });
  });
  test('no front matter, an unclosed one, an empty one', () => {
    expect(splitFrontMatter('# Just text\n---\n')).toEqual({ data: {}, body: '# Just text\n---\n' });
    expect(splitFrontMatter('---\na: 1\nno end')).toEqual({ data: {}, body: '---\na: 1\nno end' });
    expect(splitFrontMatter('---\n---\nbody')).toEqual({ data: {}, body: 'body' });
  });
  test('front matter that does not parse, or is not a mapping, is an error saying so', () => {
    expect(() => splitFrontMatter('---\ntitle: [unclosed\n---\n')).toThrow('The front matter is not valid YAML');
    expect(() => splitFrontMatter('---\n- a\n- b\n---\n')).toThrow('The front matter must be a mapping');
  });
});

const fixture = (name: string) =>
  splitFrontMatter(fs.readFileSync(path.join(import.meta.dir, '../fixtures/markdown', name), 'utf8'));
/** As the importer would: images beside the post or in the assets folder are media, `.md` links are posts. */
const blogTargets = (mediaId: number, postId: number): ConvertOptions => ({
  imageTarget: (src) => (src.includes('code.png') ? null : { relationTo: 'media', value: mediaId }),
  linkTarget: (href) => (href.endsWith('.md') ? { relationTo: 'posts', value: postId } : null),
});

describe('the files of a Markdown blog', () => {
  test('a post: front matter typed, every construct mapped', () => {
    const { data, body } = fixture('hello-world.md');
    expect(data).toEqual({
      title: 'Hello, world: a first post',
      date: '2024-05-01',
      updated: '2024-05-03T10:30:00Z',
      draft: false,
      rating: 4.5,
      tags: ['intro', 'markdown'],
      hero: '../../assets/hero.jpg',
      author: { name: 'Ada', url: 'https://ada.example' },
    });
    const { value, lossy } = markdownToLexical(body, blogTargets(1, 2));
    expect(lossy).toEqual([
      { what: 'table', count: 1 },
      { what: 'raw HTML', count: 1 },
    ]);
    expect(shapes(value)).toEqual([
      ['h1', 'Hello, world'],
      [
        'paragraph',
        'This is the ',
        ['first', 1],
        ' post of a static blog, written in ',
        ['Markdown', 2],
        ' with ',
        ['no', 4],
        ' some ',
        ['inline code', 16],
        ', a ',
        ['link https://example.com/docs', 'link to the docs'],
        ', an autolink ',
        ['link https://example.com/auto', 'https://example.com/auto'],
        ' and a ',
        ['link posts/2', 'link to another post'],
        '.',
      ],
      'upload media/1 "The hero image"',
      ['paragraph', 'A paragraph with an image inline: '],
      'upload media/1 "a small icon"',
      ['paragraph', ' and text after it. A line ending in two spaces', 'BR', 'makes a hard break.'],
      ['h2', 'Lists'],
      [
        'number',
        ['1', 'First step'],
        ['2', 'Second step, with a nested list:'],
        [
          '3',
          [
            'bullet',
            ['1 >1', 'a bullet'],
            ['2 >1', 'another, with ', ['bold', 1]],
            ['3 >1', ['number', ['1 >2', 'deeper']]],
          ],
        ],
        ['3', 'Third step'],
      ],
      ['check', ['1 [x]', 'Write the post'], ['2 [ ]', 'Publish it']],
      ['quote', 'A quote that runs over two lines.', 'BR', 'And a second paragraph.'],
      'HR',
      ['h2', 'Code'],
      ['paragraph', ['// An image in code is text: ![not an image](./code.png)', 16], 'BR', ['const answer = 42;', 16]],
      ['paragraph', ['indented code block', 16]],
      ['h2', 'A table'],
      ['paragraph', 'Name | Value'],
      ['paragraph', 'one | 1'],
      ['paragraph', ['link posts/2', 'two'], ' | ', ['2', 1]],
      ['paragraph', 'Raw HTML'],
      ['paragraph', 'Some ', ['hidden', 2], ' text.'],
      ['paragraph', 'H', ['2', 32], 'O and E = mc', ['2', 64], '.'],
    ]);
    expect(markdownRefs(body).images).toEqual([
      { src: '../../assets/hero.jpg', alt: 'The hero image' },
      { src: './icon.png', alt: 'a small icon' },
    ]);
  });

  test('an MDX file: imports, exports and components counted, the text inside components kept', () => {
    const { data, body } = fixture('components.mdx');
    expect(data).toEqual({ title: 'With components' });
    const { value, lossy } = markdownToLexical(body);
    expect(shapes(value)).toEqual([
      ['h1', 'Charts'],
      ['paragraph', 'Some text with a new component.'],
      ['paragraph', 'First tab'],
      ['paragraph', 'The end.'],
    ]);
    expect(lossy).toEqual([
      { what: 'MDX import or export', count: 2 },
      { what: 'MDX component', count: 3 },
    ]);
  });
});

describe('stored through the API and read back as HTML, the same structure', () => {
  let r: RoundTrip;
  beforeAll(async () => {
    r = await roundTripServer('second-post');
  });
  afterAll(() => r.t.stop());

  test('every file of the blog', async () => {
    const back: ConvertOptions = {
      autoParagraphs: false,
      imageTarget: (src) => (src === r.media.url ? { relationTo: 'media', value: r.media.id } : null),
      linkTarget: (href) => (href === '/posts/second-post' ? { relationTo: 'posts', value: r.target.id } : null),
    };
    for (const name of ['hello-world.md', 'components.mdx']) {
      const { data, body } = fixture(name);
      const { value } = markdownToLexical(body, blogTargets(r.media.id, r.target.id));
      const { stored, html } = await r.store(String(data.title), value);
      expect(shapes(stored)).toEqual(shapes(value));
      expect(asHTMLShows(htmlToLexical(html, back).value)).toEqual(asHTMLShows(value));
    }
  });
});
