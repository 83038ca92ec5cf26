import bcrypt from 'bcryptjs';
import { afterAll, describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../src/users/password-hasher';

const hasher = createPasswordHasher(10);
afterAll(() => hasher.close());

describe('password hasher', () => {
  it('hashes at the configured cost and verifies', async () => {
    const hash = await hasher.hash('correct horse battery');
    expect(bcrypt.getRounds(hash)).toBe(10);
    expect(await hasher.verify('correct horse battery', hash)).toBe(true);
    expect(await hasher.verify('wrong horse battery', hash)).toBe(false);
  });

  it('says no for a missing hash (an unknown e-mail), after a real comparison', async () => {
    expect(await hasher.verify('dummy password for unknown accounts', undefined)).toBe(false);
    expect(await hasher.verify('anything at all', undefined)).toBe(false);
  });

  it('verifies $2a$ and $2y$ hashes too (made by other bcrypt libraries)', async () => {
    for (const version of ['2a', '2y'] as const) {
      // bcryptjs writes $2b$; the $2a$ and $2y$ variants differ only in the prefix for valid UTF-8 input.
      const legacy = (await bcrypt.hash('correct horse battery', 4)).replace(/^\$2b\$/, `$${version}$`);
      expect(legacy.startsWith(`$${version}$04$`)).toBe(true);
      expect(await hasher.verify('correct horse battery', legacy)).toBe(true);
    }
  });

  it('says no to a stored value that is not a bcrypt hash', async () => {
    expect(await hasher.verify('anything', 'not-a-hash')).toBe(false);
  });

  it('asks for a rehash of hashes below the configured cost', async () => {
    expect(hasher.needsRehash(await bcrypt.hash('x', 4))).toBe(true);
    expect(hasher.needsRehash(await hasher.hash('long enough password'))).toBe(false);
  });
});
