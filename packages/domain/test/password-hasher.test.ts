import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../src/users/password-hasher';

const hasher = createPasswordHasher(10);

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

  it('asks for a rehash of hashes below the configured cost', async () => {
    expect(hasher.needsRehash(await bcrypt.hash('x', 4))).toBe(true);
    expect(hasher.needsRehash(await hasher.hash('long enough password'))).toBe(false);
  });
});
