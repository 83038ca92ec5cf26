import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { firstImageSource, isTrackingPixel, sanitizeBody } from '../src/sanitize-body';

const BASE = 'https://news.example.com/world/story.html';

describe('sanitizeBody', () => {
  it('removes scripts, styles, iframes, embeds, forms and event handlers', () => {
    const html = [
      '<p onclick="steal()">Hello<script>alert(1)</script></p>',
      '<style>body{display:none}</style>',
      '<iframe src="https://evil.example/">frame text</iframe>',
      '<object data="x.swf">object text</object><embed src="x.swf">',
      '<form action="https://evil.example/"><input name="q"><button>Go</button></form>',
      '<img src="/a.jpg" onerror="steal()" onload="steal()">',
      '<svg onload="steal()"><script>alert(2)</script></svg>',
      '<p style="position:fixed" class="x" id="y">styled</p>',
    ].join('');
    const clean = sanitizeBody(html, BASE);
    expect(clean).not.toMatch(
      /script|style=|iframe|object|embed|form|input|onerror|onload|onclick|svg|alert|steal/i,
    );
    expect(clean).toContain('<p>Hello</p>');
    expect(clean).toContain('<img src="https://news.example.com/a.jpg" />');
    expect(clean).toContain('<p>styled</p>');
    expect(clean).not.toContain('frame text');
  });

  it('drops javascript:, vbscript: and data: URLs, including obfuscated ones', () => {
    const html = [
      '<a href="javascript:alert(1)">a</a>',
      '<a href="JaVaScRiPt:alert(1)">b</a>',
      '<a href="jav&#x09;ascript:alert(1)">c</a>',
      '<a href=" javascript:alert(1)">d</a>',
      '<a href="vbscript:msgbox(1)">e</a>',
      '<a href="data:text/html,<script>alert(1)</script>">f</a>',
      '<img src="data:image/png;base64,iVBORw0KGgo=">',
      '<img src="javascript:alert(1)">',
    ].join('');
    const clean = sanitizeBody(html, BASE);
    expect(clean).not.toMatch(/javascript|vbscript|data:|href=|<img/i);
    expect(clean).toContain('<a rel="noopener noreferrer">a</a>');
  });

  it('resolves relative href, src and cite against the item link', () => {
    const clean = sanitizeBody(
      '<a href="../europe/next.html">n</a><img src="img/p.jpg" alt="p"><a href="//cdn.example.com/x">x</a><blockquote cite="/source">q</blockquote>',
      BASE,
    );
    expect(clean).toContain(
      '<a href="https://news.example.com/europe/next.html" rel="noopener noreferrer">n</a>',
    );
    expect(clean).toContain('<img src="https://news.example.com/world/img/p.jpg" alt="p" />');
    expect(clean).toContain('<a href="https://cdn.example.com/x" rel="noopener noreferrer">x</a>');
    expect(clean).toContain('<blockquote cite="https://news.example.com/source">q</blockquote>');
  });

  it('drops relative URLs when there is nothing to resolve them against', () => {
    expect(sanitizeBody('<a href="/x">x</a><img src="/y.jpg">', null)).toBe(
      '<a rel="noopener noreferrer">x</a>',
    );
  });

  it('keeps mailto links and gives every link rel="noopener noreferrer", replacing the feed\'s own rel', () => {
    expect(
      sanitizeBody('<a href="mailto:desk@example.com" rel="opener" target="_blank">mail</a>', BASE),
    ).toBe('<a href="mailto:desk@example.com" rel="noopener noreferrer">mail</a>');
  });

  it('drops 1x1 tracking pixels and feed share buttons, and links left empty by that', () => {
    const html = [
      '<p>Text</p>',
      '<img src="https://t.example.com/p.gif" width="1" height="1">',
      '<img src="https://t.example.com/q.gif" width="0" height="0" />',
      '<a href="http://feeds.feedburner.com/~ff/x?a=1"><img src="http://feeds.feedburner.com/~ff/x?d=1" border="0"></a>',
      '<img src="http://feeds.feedburner.com/~r/x/~4/abc">',
      '<img src="https://img.example.com/real.jpg" width="640" height="1">',
    ].join('');
    expect(sanitizeBody(html, BASE)).toBe(
      '<p>Text</p><img src="https://img.example.com/real.jpg" width="640" height="1" />',
    );
  });

  it('keeps ordinary article markup', () => {
    const html =
      '<h2>Heading</h2><p><em>e</em> <strong>s</strong><br />line</p><figure><img src="https://i.example.com/a.jpg" alt="A" width="800" height="600" /><figcaption>Cap</figcaption></figure>' +
      '<ul><li>one</li></ul><ol start="3"><li>three</li></ol><blockquote>quote</blockquote>' +
      '<table><thead><tr><th scope="col">h</th></tr></thead><tbody><tr><td colspan="2">d</td></tr></tbody></table><pre><code>x = 1</code></pre>';
    expect(sanitizeBody(html, BASE)).toBe(html);
  });
});

describe('isTrackingPixel', () => {
  it('flags only images that are at most 1x1', () => {
    expect(isTrackingPixel({ width: '1', height: '1' })).toBe(true);
    expect(isTrackingPixel({ width: '0', height: '1px' })).toBe(true);
    expect(isTrackingPixel({ width: '1' })).toBe(false);
    expect(isTrackingPixel({})).toBe(false);
    expect(isTrackingPixel({ width: '300', height: '1' })).toBe(false);
  });
});

/** The reference firstImageSource must agree with: parse the HTML, take the first img with a src. */
function firstImageByParsing(html: string): string | null {
  let found: string | null = null;
  const parser = new Parser({
    onopentag(name, attribs) {
      if (!found && name === 'img' && attribs.src) found = attribs.src;
    },
  });
  parser.write(html);
  parser.end();
  return found;
}

describe('firstImageSource', () => {
  const bodies = [
    '<p>no image</p>',
    '<p>text &lt;img src="https://fake.example/x.jpg"&gt; is only text</p><img src="/real.jpg">',
    '<img alt=\'"> <img src="https://fake.example/a.jpg"\' src="/b.jpg?a=1&amp;b=<2>&quot;">',
    '<img src="data:image/png;base64,AAAA"><img title="src=&quot;x&quot;" width="300" src="c d.jpg">',
    '<a href="/x"><img src="https://t.example.com/p.gif" width="1" height="1"></a><figure><IMG SRC="E.JPG"></figure>',
    '<img src="/é?q=&amp;lt;">',
    '<img src="">',
  ];

  it.each(bodies)('finds the same image as parsing the sanitised body: %s', (html) => {
    const sanitized = sanitizeBody(html, BASE);
    expect(firstImageSource(sanitized)).toBe(firstImageByParsing(sanitized));
  });

  it('decodes the escapes sanitize-html writes', () => {
    expect(firstImageSource(sanitizeBody('<img src="/b.jpg?a=1&amp;b=2">', BASE))).toBe(
      'https://news.example.com/b.jpg?a=1&b=2',
    );
    expect(firstImageSource('<p>x</p>')).toBeNull();
  });
});

describe('figures and inline images (issue 32)', () => {
  it('keeps a figure, its caption and the image alt, width and height; drops everything else on them', () => {
    const html =
      '<figure class="wide" onclick="x()"><img src="https://cdn.example.com/a.jpg" alt="A bridge &amp; a boat" width="800" height="450" loading="lazy" srcset="https://evil.example/x.jpg 2x" style="border:0"><figcaption id="c">The bridge. <em>Photo: Ann Lee</em></figcaption></figure>';
    expect(sanitizeBody(html, null)).toBe(
      '<figure><img src="https://cdn.example.com/a.jpg" alt="A bridge &amp; a boat" width="800" height="450" /><figcaption>The bridge. <em>Photo: Ann Lee</em></figcaption></figure>',
    );
  });

  it('drops an image whose src is not http(s), and one on a private host', () => {
    expect(
      sanitizeBody(
        '<figure><img src="javascript:alert(1)" alt="x"><figcaption>c</figcaption></figure>',
        null,
      ),
    ).toBe('<figure><figcaption>c</figcaption></figure>');
    expect(sanitizeBody('<figure><img src="data:image/png;base64,AAAA" alt="x"></figure>', null)).toBe(
      '<figure></figure>',
    );
    expect(sanitizeBody('<figure><img src="http://10.0.0.1/a.png" alt="x"></figure>', null)).toBe(
      '<figure></figure>',
    );
  });
});

describe('images in the service’s own upload storage', () => {
  const storage = { trustedImagePrefixes: ['http://127.0.0.1:3001/newsroom-media/'] };
  const img = (src: string) => sanitizeBody(`<figure><img src="${src}" alt="a"></figure>`, null, storage);

  it('keeps an uploaded picture on a loopback store, and drops other private ones', () => {
    expect(img('http://127.0.0.1:3001/newsroom-media/uploads/2026/11/a.png')).toBe(
      '<figure><img src="http://127.0.0.1:3001/newsroom-media/uploads/2026/11/a.png" alt="a" /></figure>',
    );
    expect(img('http://127.0.0.1:3001/other-bucket/a.png')).toBe('<figure></figure>');
    expect(img('http://127.0.0.1:3001/newsroom-media-evil/a.png')).toBe('<figure></figure>');
    expect(img('http://127.0.0.1:3001/newsroom-media/../admin/a.png')).toBe('<figure></figure>');
    expect(img('http://10.0.0.1/newsroom-media/a.png')).toBe('<figure></figure>');
  });
});
