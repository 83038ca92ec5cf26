import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { loggerOptions } from '../../apps/api/src/logger';

// The same-bytes ceiling: a bare Fastify route sending, from memory, the exact bodies the API sends for page 1
// (/page) and one article (/article), and their gzip representations as the API sends them to a request that
// accepts gzip (/page-gzip, /article-gzip: the same compressed bytes with Content-Encoding and Vary), started
// like the baseline (bundled, plain node, PORT/HOST/LOG_LEVEL from env). What the API adds over it is
// everything but moving those bytes.
const page = readFileSync(process.env.PAGE_BODY_FILE as string);
const article = readFileSync(process.env.ARTICLE_BODY_FILE as string);
const pageGzip = readFileSync(process.env.PAGE_GZIP_FILE as string);
const articleGzip = readFileSync(process.env.ARTICLE_GZIP_FILE as string);
const gzipHeaders = { 'content-encoding': 'gzip', vary: 'accept-encoding' };
const app = Fastify({ logger: loggerOptions(process.env.LOG_LEVEL ?? 'info') });
const json = 'application/json; charset=utf-8';
app.get('/page', async (_request, reply) => reply.type(json).send(page));
app.get('/article', async (_request, reply) => reply.type(json).send(article));
app.get('/page-gzip', async (_request, reply) => reply.headers(gzipHeaders).type(json).send(pageGzip));
app.get('/article-gzip', async (_request, reply) => reply.headers(gzipHeaders).type(json).send(articleGzip));
app.get('/health', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
