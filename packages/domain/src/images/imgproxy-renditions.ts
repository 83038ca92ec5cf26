import { createHmac } from 'node:crypto';
import type { FocalPoint } from '../article-fields';

// Image renditions through imgproxy (issue 32): crops of a picture in 16:9, 4:3 and 1:1 around its focal
// point, at a few widths, each URL signed as imgproxy documents (docs.imgproxy.net, "Signing a URL"):
// signature = URL-safe base64 (no padding) of HMAC-SHA256(key, salt + path), key and salt hex-encoded, where
// path is everything after the signature, leading '/' included. A signed proxy is not an open proxy: only
// the URLs we sign are served.

export interface ImgproxySettings {
  /** Where imgproxy answers, e.g. https://img.example.com (no trailing slash needed). */
  baseUrl: string;
  /** Hex-encoded key and salt (IMGPROXY_KEY, IMGPROXY_SALT), as imgproxy itself is configured. */
  keyHex: string;
  saltHex: string;
}

export const renditionRatios = { '16:9': 16 / 9, '4:3': 4 / 3, '1:1': 1 } as const;
export type RenditionRatio = keyof typeof renditionRatios;
export const renditionWidths = [480, 960, 1440] as const;

export interface Rendition {
  width: number;
  height: number;
  url: string;
}

/** Per ratio: the renditions (narrowest first) and their `srcset` attribute value. */
export type Renditions = Record<RenditionRatio, { srcset: string; sources: Rendition[] }>;

/** The renditions of an article's two pictures (null: no such picture). */
export interface ArticleRenditions {
  thumbnail: Renditions | null;
  image: Renditions | null;
}

/** The signature of `path` (which starts with '/'), imgproxy's documented scheme. */
export function signImgproxyPath(path: string, keyHex: string, saltHex: string): string {
  return createHmac('sha256', Buffer.from(keyHex, 'hex'))
    .update(Buffer.from(saltHex, 'hex'))
    .update(path)
    .digest('base64url');
}

/** One signed URL: fill `width` x `height`, centred on the focal point (imgproxy's `g:fp`), source base64url-encoded. */
export function imgproxyUrl(
  settings: ImgproxySettings,
  source: string,
  width: number,
  height: number,
  focalPoint: FocalPoint | null,
): string {
  const gravity = focalPoint ? `g:fp:${focalPoint.x}:${focalPoint.y}` : 'g:ce';
  const path = `/rs:fill:${width}:${height}:0/${gravity}/${Buffer.from(source).toString('base64url')}`;
  return `${settings.baseUrl.replace(/\/+$/, '')}/${signImgproxyPath(path, settings.keyHex, settings.saltHex)}${path}`;
}

/** Every rendition of a picture: 16:9, 4:3 and 1:1 at each width, never wider than the original when known. */
export function imgproxyRenditions(
  settings: ImgproxySettings,
  source: string,
  meta: { width: number | null; focalPoint: FocalPoint | null } | null,
): Renditions {
  const widths = renditionWidths.filter((w, i) => i === 0 || meta?.width == null || w <= meta.width);
  const result = {} as Renditions;
  for (const [ratio, factor] of Object.entries(renditionRatios) as [RenditionRatio, number][]) {
    const sources = widths.map((width) => {
      const height = Math.round(width / factor);
      return { width, height, url: imgproxyUrl(settings, source, width, height, meta?.focalPoint ?? null) };
    });
    result[ratio] = { srcset: sources.map((s) => `${s.url} ${s.width}w`).join(', '), sources };
  }
  return result;
}
