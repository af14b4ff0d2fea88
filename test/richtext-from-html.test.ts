/**
 * HTML → rich text (src/richtext/from-html.ts): WordPress content, classic and Gutenberg, and web pages
 * become the stored Lexical JSON; what has no node keeps its text and is counted in `lossy`. Pure: no server.
 */
import { describe, expect, test } from 'bun:test';
import { htmlRefs, htmlToLexical, type ConvertOptions } from '../src/richtext/from-html.ts';
import { shapes } from './fixtures/richtext/shape.ts';

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
        ['paragraph', 'https://www.youtube.com/watch?v=1'],
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
