// Runs in a worker thread (see password-hasher.ts): bcryptjs is pure JavaScript and would otherwise
// hold the main event loop for the whole hash. Plain JS so it loads in a worker without a TS loader.
import bcrypt from 'bcryptjs';

export function hash({ password, cost }) {
  return bcrypt.hashSync(password, cost);
}

export function compare({ password, hash }) {
  try {
    return bcrypt.compareSync(password, hash);
  } catch {
    return false;
  }
}
