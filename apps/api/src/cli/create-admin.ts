import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { loadAdminCliConfig, loadOrExit, type RedisConfig, readLocalEnvFile } from '@newsroom/config';
import {
  appendAuditEvent,
  createDb,
  createPasswordHasher,
  DomainError,
  ensureAdministrator,
} from '@newsroom/domain';
import { createRedisConnection } from '@newsroom/queue';
import { LoginLimiter } from '../routes/auth/login-limiter';

// `pnpm admin:create [--email a@b.c] [--password ...] [--reset-password]`
// Creates an administrator login (or, with --reset-password, sets a new password on an existing one).
// Missing values are asked for: on a terminal the password is not echoed; piped, one value per line.

const usage = `Usage: pnpm admin:create [--email <address>] [--password <password>] [--reset-password]
  Creates an administrator login in the database at DATABASE_URL (run \`pnpm migrate\` first).
  Values not given as flags are asked for; prefer typing the password at the prompt
  (a --password flag stays in your shell history).
  --reset-password  the e-mail already belongs to an administrator: replace its password.`;

const emailPattern = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * Forgets the failed logins counted for `email` by the API's limiter (the way out of a lockout). Bounded:
 * one connection attempt of at most 2 s, no retries. False when Redis could not be reached.
 */
async function forgetFailedLogins(email: string, redisConfig: RedisConfig) {
  const redis = createRedisConnection(redisConfig, 'producer', {
    lazyConnect: true,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await new LoginLimiter(redis, redisConfig.queuePrefix).clearEmail(email);
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** Answers to `questions`, from the flags given or from stdin. */
async function ask(
  questions: { key: string; prompt: string; secret: boolean }[],
): Promise<Map<string, string>> {
  const answers = new Map<string, string>();
  if (questions.length === 0) return answers;
  if (!process.stdin.isTTY) {
    // Piped input: read it whole first (readline drops lines that arrive before a question is asked).
    const lines = (await text(process.stdin)).split(/\r?\n/);
    for (const [i, q] of questions.entries()) answers.set(q.key, lines[i] ?? '');
    return answers;
  }
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  try {
    for (const q of questions) {
      process.stdout.write(q.prompt);
      muted = q.secret;
      answers.set(q.key, await rl.question(''));
      muted = false;
      if (q.secret) process.stdout.write('\n');
    }
  } finally {
    rl.close();
  }
  return answers;
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        'reset-password': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${usage}`);
  }
})();
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}

readLocalEnvFile();
const config = loadOrExit(() => loadAdminCliConfig());
const questions = [
  ...(values.email === undefined ? [{ key: 'email', prompt: 'Administrator e-mail: ', secret: false }] : []),
  ...(values.password === undefined
    ? [{ key: 'password', prompt: 'Password (12+ characters): ', secret: true }]
    : []),
  ...(values.password === undefined && process.stdin.isTTY
    ? [{ key: 'repeat', prompt: 'Repeat the password: ', secret: true }]
    : []),
];
const answers = await ask(questions);
const email = (values.email ?? answers.get('email') ?? '').trim();
const password = values.password ?? answers.get('password') ?? '';
if (!emailPattern.test(email)) fail(`Not an e-mail address: "${email}"`);
if (answers.has('repeat') && answers.get('repeat') !== password) fail('The passwords do not match');

const db = createDb({ connectionString: config.databaseUrl, max: 1, applicationName: 'newsroom-admin-cli' });
const passwords = createPasswordHasher(config.bcryptCost);
try {
  const { outcome } = await ensureAdministrator(
    db,
    passwords,
    { email, password },
    {
      resetPassword: values['reset-password'],
    },
  );
  const messages = {
    created: `Administrator ${email} created.`,
    exists: `Administrator ${email} already exists; its password was left unchanged (use --reset-password to replace it).`,
    'password-reset': `Password of administrator ${email} replaced.`,
    'email-used-by-publisher': `${email} is a publisher's login; no administrator created.`,
  } as const;
  process.stdout.write(`${messages[outcome]}\n`);
  if (outcome === 'created' || outcome === 'password-reset')
    await appendAuditEvent(db, {
      actor: { type: 'system', id: null, label: 'pnpm admin:create' },
      address: null,
      action: outcome === 'created' ? 'createAdministrator' : 'resetAdministratorPassword',
      objectType: 'user',
      objectId: null,
      siteId: null,
      changes: { after: { email } },
    });
  if (outcome === 'password-reset' && !(await forgetFailedLogins(email, config.redis))) {
    // The password is replaced either way; the counters then age out (an hour at most).
    process.stderr.write(
      'Warning: Redis (REDIS_URL) was unreachable, so the failed logins counted for this e-mail were not cleared; they expire within an hour.\n',
    );
  }
  process.exitCode = outcome === 'email-used-by-publisher' ? 1 : 0;
} catch (error) {
  if (error instanceof DomainError) fail(error.message);
  fail(`Could not create the administrator: ${(error as Error).message}`);
} finally {
  await Promise.all([db.destroy(), passwords.close()]);
}
