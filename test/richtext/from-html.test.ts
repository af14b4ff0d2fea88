// Runs once (on the SQLite pass): conversions of rich text, which the engine plays no part in.
/**
 * HTML → rich text (src/richtext/from-html.ts): WordPress content, classic and Gutenberg, and web pages
 * become the stored Lexical JSON; what has no node keeps its text and is counted in `lossy`. The cases are
 * pure; the posts of a WordPress export (test/fixtures/wordpress/markup-posts.xml) are also stored through
 * the API and read back as HTML, which converts back to the same structure.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { htmlRefs, htmlToLexical, type ConvertOptions } from '../../src/richtext/from-html.ts';
import { type RichTextValue, visitNodes } from '../../src/richtext/nodes.ts';
import { asHTMLShows, type RoundTrip, roundTripServer } from '../support/richtext-round-trip.ts';
import { shapes } from '../fixtures/richtext/shape.ts';
import { CASES } from '../fixtures/richtext/cases.ts';
import recorded from '../fixtures/richtext/payload-output.json';

const media: ConvertOptions = {
  imageTarget: (src) => (src.includes('missing') ? null : { relationTo: 'media', value: src.length }),
  linkTarget: (href) => (href.startsWith('/old/') ? { relationTo: 'posts', value: Number(href.slice(5)) } : null),
};
const convert = (html: string, options: ConvertOptions = media) => {
  const { value, lossy } = htmlToLexical(html, options);
  return { blocks: shapes(value), lossy: Object.fromEntries(lossy.map((l) => [l.what, l.count])) };
};

describe('classic WordPress content: blank lines are paragraphs, single line ends are line breaks', () => {
  test('bare lines', () => {
    expect(convert('First line\nsecond line\n\nNext paragraph\r\n\r\nThird').blocks).toEqual([
      ['paragraph', 'First line', 'BR', 'second line'],
      ['paragraph', 'Next paragraph'],
      ['paragraph', 'Third'],
    ]);
  });
  test('inline markup across lines, and blocks between bare text', () => {
    expect(convert('Some <strong>bold\ntext</strong> here\n<ul>\n<li>one</li>\n</ul>\nAfter').blocks).toEqual([
      ['paragraph', 'Some ', ['bold', 1], 'BR', ['text', 1], ' here'],
      ['bullet', ['1', 'one']],
      ['paragraph', 'After'],
    ]);
  });
  test('a line end right after <br> is that line break', () => {
    expect(convert('One<br />\ntwo<br>\n\nthree').blocks).toEqual([
      ['paragraph', 'One', 'BR', 'two'],
      ['paragraph', 'three'],
    ]);
  });
  test('a blank line inside an inline element still ends the paragraph', () => {
    expect(convert('<em>one\n\ntwo</em>').blocks).toEqual([
      ['paragraph', ['one', 2]],
      ['paragraph', ['two', 2]],
    ]);
  });
});

describe('Gutenberg content is ordinary HTML', () => {
  test('line ends inside blocks are spaces, block comments are not text', () => {
    const html =
      '<!-- wp:paragraph -->\n<p>One\n   two</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>Three<br>four</p>\n<!-- /wp:paragraph -->';
    expect(convert(html)).toEqual({
      blocks: [
        ['paragraph', 'One two'],
        ['paragraph', 'Three', 'BR', 'four'],
      ],
      lossy: {},
    });
  });
});

describe('elements and their nodes', () => {
  test('headings and text formats', () => {
    expect(
      convert(
        '<h2>Title <em>here</em></h2><p><b>b</b><i>i</i><u>u</u><s>s</s><code>c</code><sub>2</sub><sup>3</sup><strong><em>bi</em></strong></p>',
      ).blocks,
    ).toEqual([
      ['h2', 'Title ', ['here', 2]],
      ['paragraph', ['b', 1], ['i', 2], ['u', 8], ['s', 4], ['c', 16], ['2', 32], ['3', 64], ['bi', 3]],
    ]);
  });
  test('formats written as inline style (word processors)', () => {
    expect(
      convert(
        '<p><span style="font-weight:700">b</span><span style="font-style: italic; text-decoration: underline">iu</span></p>',
      ).blocks,
    ).toEqual([['paragraph', ['b', 1], ['iu', 10]]]);
  });
  test('inline style also turns formats off: a Google Docs copy is wrapped in a bold element that is not bold', () => {
    expect(
      convert(
        '<b style="font-weight:normal;" id="docs-internal-guid-1"><p><span style="font-weight:400">plain</span> <span style="font-weight:700">bold</span></p></b><p><em style="font-style:normal">upright</em> <strong style="font-weight:bold">strong</strong> <u style="text-decoration:none">flat</u></p>',
      ).blocks,
    ).toEqual([
      ['paragraph', 'plain ', ['bold', 1]],
      ['paragraph', 'upright ', ['strong', 1], ' flat'],
    ]);
  });
  test('links: external, new tab, internal to an imported document', () => {
    expect(
      convert('<p><a href="https://x.test/" target="_blank">out</a> and <a href="/old/7">in <b>bold</b></a></p>')
        .blocks,
    ).toEqual([
      ['paragraph', ['link https://x.test/ (new tab)', 'out'], ' and ', ['link posts/7', 'in ', ['bold', 1]]],
    ]);
  });
  test('an anchor without href is its text', () => {
    expect(convert('<p><a name="top">Top</a></p>').blocks).toEqual([['paragraph', 'Top']]);
  });
  test('nested lists as Lexical stores them, numbered lists with their start', () => {
    const html = '<ol start="3"><li>three<ol><li>a</li><li>b<ul><li>deep</li></ul></li></ol></li><li>four</li></ol>';
    expect(convert(html).blocks).toEqual([
      [
        'number from 3',
        ['3', 'three'],
        ['4', ['number', ['1 >1', 'a'], ['2 >1', 'b'], ['3 >1', ['bullet', ['1 >2', 'deep']]]]],
        ['4', 'four'],
      ],
    ]);
  });
  test('a list written straight inside a list belongs to the item before it', () => {
    expect(convert('<ul><li>a</li><ul><li>b</li></ul></ul>').blocks).toEqual([
      ['bullet', ['1', 'a'], ['2', ['bullet', ['1 >1', 'b']]]],
    ]);
  });
  test('check lists from checkboxes', () => {
    expect(
      convert('<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li></ul>').blocks,
    ).toEqual([['check', ['1 [x]', 'done'], ['2 [ ]', 'todo']]]);
  });
  test('quotes hold their paragraphs as lines, the citation included', () => {
    expect(
      convert('<blockquote class="wp-block-quote"><p>One</p><p>Two</p><cite>Someone</cite></blockquote>').blocks,
    ).toEqual([['quote', 'One', 'BR', 'Two', 'BR', ['Someone', 2]]]);
  });
  test('a list in a quote or heading becomes lines of its items, counted', () => {
    expect(convert('<blockquote><p>q</p><ol><li>a<ul><li>b</li></ul></li></ol></blockquote>')).toEqual({
      blocks: [['quote', 'q', 'BR', '1. a', 'BR', '• b']],
      lossy: { 'list inside a quote': 1 },
    });
  });
  test('preformatted code keeps its spaces and lines as code-formatted text; a verse is not code', () => {
    expect(
      convert(
        '<pre class="wp-block-code"><code>if (a) {\n  b();\n}</code></pre><pre class="wp-block-verse">Roses\n  red</pre>',
      ).blocks,
    ).toEqual([
      ['paragraph', ['if (a) {', 16], 'BR', ['  b();', 16], 'BR', ['}', 16]],
      ['paragraph', 'Roses', 'BR', '  red'],
    ]);
  });
  test('rules and entities', () => {
    expect(convert('<p>a &amp; b&nbsp;c &lt;tag&gt;</p><hr>').blocks).toEqual([
      ['paragraph', 'a & b\u00a0c <tag>'],
      'HR',
    ]);
  });
});

describe('images', () => {
  test('an image with a media document is an upload node that ends the paragraph around it', () => {
    expect(convert('<p>Before <img src="/a.jpg" alt="An A"> after</p>')).toEqual({
      blocks: [['paragraph', 'Before'], 'upload media/6 "An A"', ['paragraph', 'after']],
      lossy: {},
    });
  });
  test('an image without one is a link to its file, counted', () => {
    expect(convert('<p>See <img src="/missing.png" alt="chart"></p>')).toEqual({
      blocks: [['paragraph', 'See ', ['link /missing.png', 'chart']]],
      lossy: { 'image without a media document': 1 },
    });
    expect(convert('<p><img src="/x.png"></p>', {}).blocks).toEqual([['paragraph', ['link /x.png', '/x.png']]]);
  });
  test('an image linked to its file loses nothing; linked elsewhere the link is counted', () => {
    expect(convert('<p><a href="/full.jpg"><img src="/a-300.jpg"></a></p>')).toEqual({
      blocks: ['upload media/10'],
      lossy: {},
    });
    expect(convert('<p><a href="https://shop.test/"><img src="/a.jpg"></a></p>').lossy).toEqual({
      'link on an image': 1,
    });
  });
  test('an image inside a list item or quote is placed right after it', () => {
    expect(convert('<ul><li>a <img src="/i.png"> b</li><li>c</li></ul><p>end</p>').blocks).toEqual([
      ['bullet', ['1', 'a', 'BR', 'b'], ['2', 'c']],
      'upload media/6',
      ['paragraph', 'end'],
    ]);
  });
  test('a Gutenberg image block with its caption', () => {
    const html =
      '<!-- wp:image {"id":12,"sizeSlug":"large"} -->\n<figure class="wp-block-image size-large"><img src="/u/b.jpg" alt="B" class="wp-image-12"/><figcaption>The caption</figcaption></figure>\n<!-- /wp:image -->';
    expect(convert(html)).toEqual({ blocks: ['upload media/8 "B"', ['paragraph', 'The caption']], lossy: {} });
  });
});

describe('what has no node keeps its text and is counted', () => {
  test('tables become lines of cells', () => {
    const html =
      '<table><thead><tr><th>Name</th><th>Age</th></tr></thead><tbody><tr><td><a href="/old/2">Ann</a></td><td>30</td></tr></tbody></table>';
    expect(convert(html)).toEqual({
      blocks: [
        ['paragraph', 'Name | Age'],
        ['paragraph', ['link posts/2', 'Ann'], ' | 30'],
      ],
      lossy: { table: 1 },
    });
  });
  test('shortcodes: tags removed, text kept; bracketed words that are not shortcodes stay', () => {
    expect(
      convert(
        '[caption id="attachment_5" width="300"]<img src="/missing.jpg" alt="x"> A caption[/caption]\n\nSee [1] and [sic].\n\n[gallery ids="1,2,3"]',
      ),
    ).toEqual({
      blocks: [
        ['paragraph', ['link /missing.jpg', 'x'], ' A caption'],
        ['paragraph', 'See [1] and [sic].'],
      ],
      lossy: { 'shortcode [caption]': 1, 'image without a media document': 1, 'shortcode [gallery]': 1 },
    });
  });
  test('Gutenberg galleries, columns, embeds and raw HTML blocks', () => {
    const html = [
      '<!-- wp:gallery {"linkTo":"none"} --><figure class="wp-block-gallery"><!-- wp:image --><figure><img src="/g1.jpg"/></figure><!-- /wp:image --></figure><!-- /wp:gallery -->',
      '<!-- wp:columns --><div class="wp-block-columns"><!-- wp:column --><div class="wp-block-column"><!-- wp:paragraph --><p>Left</p><!-- /wp:paragraph --></div><!-- /wp:column --><!-- wp:column --><div class="wp-block-column"><p>Right</p></div><!-- /wp:column --></div><!-- /wp:columns -->',
      '<!-- wp:embed {"url":"https://www.youtube.com/watch?v=1","type":"video"} --><figure class="wp-block-embed"><div class="wp-block-embed__wrapper">\nhttps://www.youtube.com/watch?v=1\n</div></figure><!-- /wp:embed -->',
      '<!-- wp:html --><div class="custom"><iframe src="https://maps.test/x"></iframe></div><!-- /wp:html -->',
      '<!-- wp:latest-posts /-->',
    ].join('\n\n');
    expect(convert(html)).toEqual({
      blocks: [
        'upload media/7',
        ['paragraph', 'Left'],
        ['paragraph', 'Right'],
        ['paragraph', ['link https://www.youtube.com/watch?v=1', 'https://www.youtube.com/watch?v=1']],
        ['paragraph', ['link https://maps.test/x', 'https://maps.test/x']],
      ],
      lossy: {
        gallery: 1,
        columns: 1,
        embed: 2,
        'raw HTML': 1,
        'WordPress block latest-posts': 1,
      },
    });
  });
  test('scripts and styles leave nothing; forms keep their text', () => {
    expect(
      convert('<p>a</p><script>alert(1)</script><style>p{}</style><form><label>Name</label><input name="n"></form>'),
    ).toEqual({
      blocks: [
        ['paragraph', 'a'],
        ['paragraph', 'Name'],
      ],
      lossy: { script: 1, form: 1 },
    });
  });
  test('a link or image the HTML output would never render keeps only its text', () => {
    expect(
      convert('<p><a href="javascript:alert(1)">click</a> <img src="data:image/png;base64,AAAA" alt="dot"></p>', {}),
    ).toEqual({
      blocks: [['paragraph', 'click dot']],
      lossy: { 'unsafe link': 1, 'image without a media document': 1 },
    });
  });
  test('the more tag ends the intro', () => {
    expect(convert('Intro\n<!--more-->\nRest')).toEqual({
      blocks: [
        ['paragraph', 'Intro'],
        ['paragraph', 'Rest'],
      ],
      lossy: { 'more tag': 1 },
    });
  });
});

describe("Payload's own HTML reads back as the value it was made from", () => {
  // Recorded from Payload's converter (scripts/record-payload-richtext.ts). Left out: empty values, indent
  // and tabs (no HTML of their own), links made safe ("#"), autolinks (read as links) and uploads.
  const names = [
    'every text format',
    'escaping',
    'headings',
    'lists',
    'nested list',
    'check list',
    'quote and rule',
    'links',
    'mixed document',
  ];
  for (const name of names) {
    test(name, () => {
      const html = (recorded.outputs as Record<string, { html: string }>)[name].html;
      const value = CASES[name] as RichTextValue;
      // The fixtures leave out the depth Lexical writes on nested items (`indent`).
      const read = JSON.stringify(shapes(htmlToLexical(html, { autoParagraphs: false }).value)).replace(/ >\d/g, '');
      expect(JSON.parse(read)).toEqual(shapes(value));
    });
  }
});

describe('htmlRefs', () => {
  test('every link and image once, in order', () => {
    expect(
      htmlRefs(
        '<p><a href="/a">a</a> <img src="/i.png" alt="I"> <a href="/a">again</a> <a name="x">no href</a></p><img src="/j.png">',
      ),
    ).toEqual({
      links: ['/a'],
      images: [
        { src: '/i.png', alt: 'I' },
        { src: '/j.png', alt: '' },
      ],
    });
  });
});

/** The posts of the export: title, permalink and content as WordPress stored them. */
function exportedPosts(): { title: string; link: string; content: string }[] {
  const xml = fs.readFileSync(path.join(import.meta.dir, '../fixtures/wordpress/markup-posts.xml'), 'utf8');
  const doc = parseDocument(xml, { xmlMode: true });
  const child = (item: any, name: string) => DomUtils.textContent(DomUtils.getElementsByTagName(name, item, true)[0]);
  return DomUtils.getElementsByTagName('item', doc.children).map((item) => ({
    title: child(item, 'title'),
    link: child(item, 'link'),
    content: child(item, 'content:encoded'),
  }));
}

const SITE = 'https://markup.example.org';
/** As the importer would: uploads are media documents (one was never uploaded), links to the site's posts are internal. */
const wordpressTargets = (mediaId: number, postId: number): ConvertOptions => ({
  imageTarget: (src) =>
    src.startsWith(`${SITE}/wp-content/uploads/`) && !src.includes('not-uploaded')
      ? { relationTo: 'media', value: mediaId }
      : null,
  linkTarget: (href) =>
    href.startsWith(`${SITE}/20`) || href.startsWith(`${SITE}/?p=`) ? { relationTo: 'posts', value: postId } : null,
});

/** The words of each piece of text a reader sees in the source HTML (outside tags, scripts, shortcode tags). */
function sourceWords(html: string): string[] {
  const texts = DomUtils.filter((node) => node.type === 'text', parseDocument(html).children, true) as any[];
  return texts
    .filter((node) => node.parent?.name !== 'script' && node.parent?.name !== 'style')
    .flatMap((node) => words(String(node.data).replace(/\[\/?[a-z][\w-]*[^\]]*\]/gi, ' ')));
}
/** The words of each text node of a value. */
function keptWords(value: RichTextValue): Set<string> {
  const kept = new Set<string>();
  visitNodes(value, (node) => {
    if (node.type === 'text') for (const word of words(String(node.text))) kept.add(word);
  });
  return kept;
}
const words = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

describe('the posts of a WordPress export', () => {
  const posts = exportedPosts();
  const lossy: Record<string, Record<string, number>> = {
    'Markup: HTML Tags and Formatting': { table: 1 },
    'Markup: Image Alignment': { 'shortcode [caption]': 2, 'link on an image': 1 },
    'Template: More Tag': { 'more tag': 1, 'page break': 1 },
    'Post Format: Gallery and Video': {
      'shortcode [gallery]': 1,
      'shortcode [embed]': 1,
      'shortcode [audio]': 1,
      embed: 2,
    },
    'Blocks: Text': {},
    'Blocks: Media': {
      gallery: 1,
      'image without a media document': 1,
      audio: 1,
      video: 1,
      'media and text': 1,
      cover: 1,
    },
    'Blocks: Layout and Embeds': {
      table: 1,
      columns: 1,
      embed: 3,
      'raw HTML': 1,
      script: 1,
      'shortcode [contact-form-7]': 1,
      buttons: 1,
      'WordPress block latest-posts': 1,
      'more tag': 1,
    },
  };
  test('the fixture holds the posts this test expects', () => {
    expect(posts.map((p) => p.title)).toEqual(Object.keys(lossy));
  });
  for (const post of posts) {
    test(`${post.title}: what had no node is counted, and every word written is kept`, () => {
      const { value, lossy: lost } = htmlToLexical(post.content, wordpressTargets(1, 1));
      expect(Object.fromEntries(lost.map((l) => [l.what, l.count]))).toEqual(lossy[post.title]);
      const kept = keptWords(value);
      expect(sourceWords(post.content).filter((word) => !kept.has(word))).toEqual([]);
    });
  }

  test('classic content: paragraphs, headings, nested lists, a preformatted poem, inline tags', () => {
    const { value } = htmlToLexical(posts[0].content, wordpressTargets(1, 1));
    const blocks = shapes(value);
    expect(blocks.slice(0, 3)).toEqual([
      ['paragraph', ['Headings', 1]],
      ['h1', 'Header one'],
      ['h2', 'Header two'],
    ]);
    expect(blocks).toContainEqual([
      'quote',
      "People think focus means saying yes to the thing you've got to focus on. But that's not what it means at all.",
      'BR',
      'It means saying no to the hundred other good ideas that there are.',
    ]);
    expect(blocks).toContainEqual([
      'bullet',
      ['1', 'List item one'],
      [
        '2',
        [
          'bullet',
          ['1 >1', 'List item one'],
          ['2 >1', ['bullet', ['1 >2', 'List item one'], ['2 >2', 'List item two']]],
          ['2 >1', 'List item two'],
        ],
      ],
      ['2', 'List item two'],
    ]);
    expect(blocks).toContainEqual(['paragraph', '1 Infinite Loop', 'BR', 'Cupertino, CA 95014', 'BR', 'United States']);
    expect(blocks).toContainEqual([
      'paragraph',
      'Getting our science styling on with H',
      ['2', 32],
      'O, which should push the "2" down.',
    ]);
    expect(blocks).toContainEqual(['paragraph', 'This tag shows ', ['strike-through', 4], ' text.']);
  });

  test('Gutenberg content: alignment, nested list blocks, quotes with citations, code keeping its indentation', () => {
    const { value } = htmlToLexical(posts[4].content, wordpressTargets(1, 9));
    expect(shapes(value).slice(1, 8)).toEqual([
      ['paragraph (center)', 'A centered paragraph that continues on the next source line.'],
      ['h2', 'A second-level heading'],
      ['h4 (right)', 'A right-aligned fourth-level heading'],
      [
        'bullet',
        ['1', 'Top level'],
        ['2', ['bullet', ['1 >1', 'Second level with ', ['link posts/9', 'a link to another post']]]],
        ['2', 'Back at the top'],
      ],
      ['number from 5', ['5', 'Five'], ['6', 'Six']],
      ['quote', 'A quote block, with two paragraphs.', 'BR', 'The second one.', 'BR', ['A. Person', 2]],
      ['quote', 'A pullquote.', 'BR', ['Someone else', 2]],
    ]);
    expect(shapes(value)).toContainEqual([
      'paragraph',
      ['<?php', 16],
      'BR',
      ["echo 'Hello & welcome';", 16],
      'BR',
      ['    // indented', 16],
    ]);
  });

  test('htmlRefs lists what the importer must resolve before converting', () => {
    const refs = htmlRefs(posts[1].content);
    expect(refs.images.map((i) => i.src.replace(`${SITE}/wp-content/uploads/`, ''))).toEqual([
      '2013/03/image-alignment-580x300.jpg',
      '2013/03/image-alignment-150x150.jpg',
      '2013/03/image-alignment-1200x4002.jpg',
      '2013/03/image-alignment-300x200.jpg',
    ]);
    expect(refs.links).toEqual([
      `${SITE}/wp-content/uploads/2013/03/image-alignment-1200x4002.jpg`,
      'https://en.support.wordpress.com/images/image-settings/',
      `${SITE}/?attachment_id=905`,
    ]);
  });
});

describe('stored through the API and read back as HTML, the same structure', () => {
  let r: RoundTrip;
  beforeAll(async () => {
    r = await roundTripServer('target');
  });
  afterAll(() => r.t.stop());

  test('deep nesting converts to a value the API stores: lists join the deepest list, elements read as text', async () => {
    const nest = (n: number, open: string, close: string) => `${open.repeat(n)}x${close.repeat(n)}`;
    const lists = htmlToLexical(nest(60, '<ul><li>a', '</li></ul>'));
    const deepest = JSON.stringify(lists.value).split('"type":"list"').length - 1;
    expect(deepest).toBe(16);
    const elements = htmlToLexical(nest(5000, '<div><span>', '</span></div>'));
    expect(shapes(elements.value)).toEqual([['paragraph', 'x']]);
    expect(elements.lossy).toEqual([{ what: 'nesting too deep', count: 1 }]);
    for (const { value } of [
      lists,
      elements,
      htmlToLexical(nest(3000, '<blockquote><a href="/x">', '</a></blockquote>')),
    ]) {
      await r.store('Deep', value);
    }
  });

  test('every post of the export', async () => {
    const back: ConvertOptions = {
      autoParagraphs: false,
      imageTarget: (src) => (src === r.media.url ? { relationTo: 'media', value: r.media.id } : null),
      linkTarget: (href) => (href === '/posts/target' ? { relationTo: 'posts', value: r.target.id } : null),
    };
    for (const post of exportedPosts()) {
      const { value } = htmlToLexical(post.content, wordpressTargets(r.media.id, r.target.id));
      const { stored, html } = await r.store(post.title, value);
      expect(shapes(stored)).toEqual(shapes(value));
      expect(asHTMLShows(htmlToLexical(html, back).value)).toEqual(asHTMLShows(value));
    }
  });
});
