// Letters and digits without look-alikes (0/O, 1/l/I), so a password read aloud or copied by hand survives.
const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random password from the browser's CSPRNG (20 characters: ~115 bits). */
export function generatePassword(length = 20): string {
  const limit = 256 - (256 % alphabet.length); // rejection sampling: no modulo bias
  let result = '';
  while (result.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && result.length < length) result += alphabet[byte % alphabet.length];
    }
  }
  return result;
}
