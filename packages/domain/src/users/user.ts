import type { UserRole } from '../db/tables';

/** A dashboard login as the API sees it once authenticated. Never carries the password hash. */
export interface User {
  id: string;
  email: string;
  role: UserRole;
  /** Set for publisher logins: the publisher record this login manages. */
  publisherId: string | null;
  /** Carried by the user's tokens; a password change increments it, ending every older token. */
  tokenVersion: number;
}
