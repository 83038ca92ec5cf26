import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { undiciAcceptEncoding } from './load';

// The bodies the same-bytes ceiling (same-bytes-server.ts) sends: fetched from the running API, as it sends
// them plain and gzip, and written to files the ceiling's process reads at start.

/** A response's bytes as they came over the wire (fetch would decompress them). */
export function rawBody(url: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (response.headers['content-encoding'] !== 'gzip') reject(new Error(`${url}: not gzip`));
        else resolve(Buffer.concat(chunks));
      });
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

export interface SameBytes {
  /** The ceiling process's environment naming the files. */
  env: Record<string, string>;
  page: Buffer;
  pageGzip: Buffer;
  partner: Buffer;
  partnerGzip: Buffer;
}

/**
 * Page 1 of /posts and of /partner-articles, and every article of the by-slug rotation, plain and gzip, as
 * the API sends them, written under `dir`: the ceiling rotates through the same bodies (a load generator
 * reading one body over and over does less work than reading 2,000).
 */
export async function captureSameBytes(
  apiUrl: string,
  headers: Record<string, string>,
  slugPaths: readonly string[],
  dir: string,
): Promise<SameBytes> {
  const gzipHeaders = { ...headers, 'accept-encoding': undiciAcceptEncoding };
  const plain = async (path: string) =>
    Buffer.from(await (await fetch(`${apiUrl}${path}`, { headers })).arrayBuffer());
  const page = await plain('/api/v1/client/posts');
  const pageGzip = await rawBody(`${apiUrl}/api/v1/client/posts`, gzipHeaders);
  const partner = await plain('/api/v1/client/partner-articles');
  const partnerGzip = await rawBody(`${apiUrl}/api/v1/client/partner-articles`, gzipHeaders);
  const plainArticles: string[] = [];
  const gzipArticles: string[] = [];
  for (const path of slugPaths) {
    plainArticles.push((await plain(path)).toString('base64'));
    gzipArticles.push((await rawBody(`${apiUrl}${path}`, gzipHeaders)).toString('base64'));
  }
  const files = {
    PAGE_BODY_FILE: [join(dir, 'page.json'), page],
    PAGE_GZIP_FILE: [join(dir, 'page.json.gz'), pageGzip],
    PARTNER_BODY_FILE: [join(dir, 'partner.json'), partner],
    PARTNER_GZIP_FILE: [join(dir, 'partner.json.gz'), partnerGzip],
    ARTICLE_BODIES_FILE: [
      join(dir, 'articles.json'),
      JSON.stringify({ plain: plainArticles, gzip: gzipArticles }),
    ],
  } as const;
  const env: Record<string, string> = {};
  for (const [name, [file, bytes]] of Object.entries(files)) {
    writeFileSync(file, bytes);
    env[name] = file;
  }
  return { env, page, pageGzip, partner, partnerGzip };
}

/** The ceiling's paths of the by-slug rotation: `/article/<n>` (or `/article-gzip/<n>`) for each slug. */
export const ceilingArticlePaths = (prefix: string, slugPaths: readonly string[]) =>
  slugPaths.map((_, n) => `${prefix}/${n}`);
