import { createTestDatabase } from '@newsroom/test-support';
import bcrypt from 'bcryptjs';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DomainValidationError } from '../src/errors';
import { ensureAdministrator } from '../src/users/administrator.service';
import { createPasswordHasher } from '../src/users/password-hasher';

const { db, destroy } = await createTestDatabase();
afterAll(async () => {
  await destroy();
  await hasher.close();
});

const hasher = createPasswordHasher(10);
const hashOf = async (email: string) =>
  (
    await db
      .selectFrom('users')
      .select('password_hash')
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirstOrThrow()
  ).password_hash;

describe('ensureAdministrator', () => {
  it('creates the administrator once, and leaves it (and its password) alone afterwards', async () => {
    const first = await ensureAdministrator(db, hasher, {
      email: 'Boss@example.com',
      password: 'first password!',
    });
    expect(first.outcome).toBe('created');
    expect(first.user).toMatchObject({ email: 'Boss@example.com', role: 'admin', publisherId: null });

    const again = await ensureAdministrator(db, hasher, {
      email: 'boss@EXAMPLE.com',
      password: 'another password',
    });
    expect(again).toEqual({ outcome: 'exists', user: first.user });
    expect(await bcrypt.compare('first password!', await hashOf('boss@example.com'))).toBe(true);
    const { count } = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(1);
  });

  it('replaces the password only when asked to', async () => {
    const reset = await ensureAdministrator(
      db,
      hasher,
      { email: 'boss@example.com', password: 'a brand new password' },
      { resetPassword: true },
    );
    expect(reset.outcome).toBe('password-reset');
    expect(await bcrypt.compare('a brand new password', await hashOf('boss@example.com'))).toBe(true);
  });

  it('creates exactly one login when two processes start at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        ensureAdministrator(db, hasher, { email: 'race@example.com', password: 'race password!!' }),
      ),
    );
    expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
    expect(new Set(results.map((r) => r.user.id)).size).toBe(1);
  });

  it("never turns a publisher's login into an administrator", async () => {
    const publisher = await db
      .insertInto('publishers')
      .values({ name: 'P' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('users')
      .values({ email: 'desk@p.example', password_hash: 'x', role: 'publisher', publisher_id: publisher.id })
      .execute();
    const result = await ensureAdministrator(
      db,
      hasher,
      { email: 'desk@p.example', password: 'some password!' },
      { resetPassword: true },
    );
    expect(result.outcome).toBe('email-used-by-publisher');
    expect(await hashOf('desk@p.example')).toBe('x');
  });

  it('refuses a password shorter than 12 characters or longer than 72 bytes', async () => {
    await expect(
      ensureAdministrator(db, hasher, { email: 'a@b.example', password: 'short' }),
    ).rejects.toThrow(DomainValidationError);
    await expect(
      ensureAdministrator(db, hasher, { email: 'a@b.example', password: '€'.repeat(25) }),
    ).rejects.toMatchObject({ code: 'PASSWORD_TOO_LONG' });
  });
});
