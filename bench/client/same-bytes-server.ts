import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { loggerOptions } from '../../apps/api/src/logger';

// The same-bytes ceiling: a bare Fastify server sending, from memory, the exact bodies the API sends for page 1
// (/page), for partner-articles page 1 (/partner) and for the articles the by-slug runs rotate through
// (/article/:n, n = the slug's place in the rotation), and their gzip representations as the API sends them to
// a request that accepts gzip (/page-gzip, /partner-gzip, /article-gzip/:n: the same compressed bytes with
// Content-Encoding and Vary), started like the baseline (bundled, plain node, PORT/HOST/LOG_LEVEL from env).
// What the API adds over it is everything but moving those bytes. Bodies: PAGE_BODY_FILE, PAGE_GZIP_FILE,
// PARTNER_BODY_FILE, PARTNER_GZIP_FILE (optional), and ARTICLE_BODIES_FILE (JSON: `{ plain, gzip }`, two arrays
// of base64 bodies in rotation order).
const page = readFileSync(process.env.PAGE_BODY_FILE as string);
const pageGzip = readFileSync(process.env.PAGE_GZIP_FILE as string);
const optional = (name: string) => {
  const file = process.env[name];
  return file ? readFileSync(file) : null;
};
const partner = optional('PARTNER_BODY_FILE');
const partnerGzip = optional('PARTNER_GZIP_FILE');
const articleBodies = JSON.parse(readFileSync(process.env.ARTICLE_BODIES_FILE as string, 'utf8')) as {
  plain: string[];
  gzip: string[];
};
const decoded = (bodies: string[]) => bodies.map((body) => Buffer.from(body, 'base64'));
const articles = decoded(articleBodies.plain);
const articlesGzip = decoded(articleBodies.gzip);

const gzipHeaders = { 'content-encoding': 'gzip', vary: 'accept-encoding' };
const app = Fastify({ logger: loggerOptions(process.env.LOG_LEVEL ?? 'info') });
const json = 'application/json; charset=utf-8';
if (partner) app.get('/partner', async (_request, reply) => reply.type(json).send(partner));
if (partnerGzip)
  app.get('/partner-gzip', async (_request, reply) =>
    reply.headers(gzipHeaders).type(json).send(partnerGzip),
  );
type Numbered = { Params: { n: string } };
app.get('/page', async (_request, reply) => reply.type(json).send(page));
app.get('/page-gzip', async (_request, reply) => reply.headers(gzipHeaders).type(json).send(pageGzip));
app.get<Numbered>('/article/:n', async (request, reply) =>
  reply.type(json).send(articles[Number(request.params.n)]),
);
app.get<Numbered>('/article-gzip/:n', async (request, reply) =>
  reply.headers(gzipHeaders).type(json).send(articlesGzip[Number(request.params.n)]),
);
app.get('/health', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
