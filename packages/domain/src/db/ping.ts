import { sql } from 'kysely';
import type { Db } from './create-db';

/** Round-trips the cheapest query there is: the readiness probe's "can we reach Postgres". */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
