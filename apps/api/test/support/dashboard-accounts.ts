import type { Db } from '@newsroom/domain';
import type { App } from '../../src/app';

let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

export interface Account {
  id: string;
  email: string;
  token: string;
}

export interface PublisherAccount extends Account {
  publisherId: string;
}

/**
 * An administrator login, straight in the database. Pass `password` to make it able to log in
 * (hashed at the app's cost); without one, the stored hash matches nothing.
 */
export async function insertAdmin(app: App, db: Db, options: { email?: string; password?: string } = {}) {
  const email = options.email ?? `${unique('admin')}@example.com`;
  const passwordHash = options.password ? await app.passwords.hash(options.password) : 'no-password';
  const { id } = await db
    .insertInto('users')
    .values({ email, password_hash: passwordHash, role: 'admin' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, email, token: app.issueToken({ id }) } satisfies Account;
}

/** A publisher record and its login, straight in the database (see insertAdmin for `password`). */
export async function insertPublisher(
  app: App,
  db: Db,
  options: { name?: string; email?: string; password?: string; approved?: boolean } = {},
): Promise<PublisherAccount> {
  const email = options.email ?? `${unique('desk')}@publisher.example`;
  const passwordHash = options.password ? await app.passwords.hash(options.password) : 'no-password';
  const publisher = await db
    .insertInto('publishers')
    .values({ name: options.name ?? unique('Publisher'), approved: options.approved ?? false })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id } = await db
    .insertInto('users')
    .values({ email, password_hash: passwordHash, role: 'publisher', publisher_id: publisher.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, email, publisherId: publisher.id, token: app.issueToken({ id }) };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
