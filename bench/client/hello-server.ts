import Fastify from 'fastify';
import { loggerOptions } from '../../apps/api/src/logger';

// The baseline: a bare Fastify route, started exactly like the API (bundled, plain node, PORT/HOST/LOG_LEVEL from env,
// the same logger options), so the ratio measures what the API adds on top of the framework.
const app = Fastify({ logger: loggerOptions(process.env.LOG_LEVEL ?? 'info') });
app.get('/', async () => ({ hello: 'world' }));
app.get('/health', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
