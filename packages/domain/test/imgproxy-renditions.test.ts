import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { imgproxyRenditions, imgproxyUrl, signImgproxyPath } from '../src/images/imgproxy-renditions';

// imgproxy's published signing example (docs.imgproxy.net, "Signing a URL"): key "secret" and salt "hello",
// hex-encoded, sign this path to this signature.
const docsKey = '736563726574';
const docsSalt = '68656C6C6F';
const docsPath = '/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png';
const docsSignature = 'oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8';

const settings = { baseUrl: 'https://img.example.com/', keyHex: docsKey, saltHex: docsSalt };

describe('imgproxy signing', () => {
  it("matches imgproxy's published example", () => {
    expect(signImgproxyPath(docsPath, docsKey, docsSalt)).toBe(docsSignature);
  });

  it('signs exactly the path after the signature, so a changed size or source is refused', () => {
    const url = imgproxyUrl(settings, 'https://cdn.example.com/a.jpg', 960, 540, { x: 0.25, y: 0.75 });
    const [, signature, ...rest] = new URL(url).pathname.split('/');
    const path = `/${rest.join('/')}`;
    expect(path).toBe(
      `/rs:fill:960:540:0/g:fp:0.25:0.75/${Buffer.from('https://cdn.example.com/a.jpg').toString('base64url')}`,
    );
    const expected = createHmac('sha256', Buffer.from(docsKey, 'hex'))
      .update(Buffer.from(docsSalt, 'hex'))
      .update(path)
      .digest('base64url');
    expect(signature).toBe(expected);
    expect(signImgproxyPath(path.replace('960:540', '4000:4000'), docsKey, docsSalt)).not.toBe(signature);
  });

  it('gives 16:9, 4:3 and 1:1 crops at each width up to the original, with srcset', () => {
    const renditions = imgproxyRenditions(settings, 'https://cdn.example.com/a.jpg', {
      width: 1000,
      focalPoint: null,
    });
    expect(renditions['16:9'].sources.map((s) => [s.width, s.height])).toEqual([
      [480, 270],
      [960, 540],
    ]);
    expect(renditions['4:3'].sources.map((s) => s.height)).toEqual([360, 720]);
    expect(renditions['1:1'].sources.map((s) => s.height)).toEqual([480, 960]);
    expect(renditions['1:1'].srcset).toMatch(
      /^https:\/\/img\.example\.com\/[\w-]{43}\/rs:fill:480:480:0\/g:ce\/\S+ 480w, \S+ 960w$/,
    );
  });
});
