import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, OptionalNullable, SiteRole, Timestamp, UpdatedAt, UserRole } from './columns';

// Team and security: the second factor, the security settings, the audit log, site grants, invitations, resets.

// Second factor (issue 31, team-2fa): see packages/domain/src/users/two-factor/README.md.

/** One TOTP enrolment per user; confirmed_at null while the enrolment awaits its first code. */
export interface UserTotpTable {
  user_id: string;
  /** AES-256-GCM: 12-byte IV, 16-byte tag, then the ciphertext of the raw secret. */
  secret_encrypted: Buffer;
  confirmed_at: Timestamp | null;
  /** The time step of the last accepted code (bigint, read as a string); a code at or before it is refused. */
  last_used_step: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  failed_attempts: ColumnType<number, number | undefined, number>;
  locked_until: Timestamp | null;
  created_at: CreatedAt;
}

export interface UserRecoveryCodeTable {
  id: Generated<string>;
  user_id: string;
  /** SHA-256 of the normalised code (16 base32 characters, 80 random bits). */
  code_hash: Buffer;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

/** A half-verified sign-in: the password was right, the second factor is still owed. */
export interface SecondFactorChallengeTable {
  id: Generated<string>;
  token_hash: Buffer;
  user_id: string;
  /** What the completed sign-in yields: a bearer token or a dashboard session. */
  kind: 'token' | 'session';
  attempts: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

/** The single row of security policy. */
export interface SecuritySettingsTable {
  id: ColumnType<boolean, never, never>;
  require_admin_two_factor: boolean;
  updated_at: UpdatedAt;
  updated_by: string | null;
}

/** One audit event (append-only, hash-chained: packages/domain/src/audit). */
export interface AuditLogTable {
  seq: ColumnType<string, string, never>;
  at: ColumnType<Date, Date, never>;
  actor_type: ColumnType<string, string, never>;
  actor_id: ColumnType<string | null, string | null, never>;
  actor_label: ColumnType<string | null, string | null, never>;
  address: ColumnType<string | null, string | null, never>;
  action: ColumnType<string, string, never>;
  object_type: ColumnType<string, string, never>;
  object_id: ColumnType<string | null, string | null, never>;
  site_id: ColumnType<string | null, string | null, never>;
  changes: ColumnType<unknown, string | null, never>;
  prev_hash: ColumnType<string, string, never>;
  hash: ColumnType<string, string, never>;
}

/** The audit chain's head (what the next append chains to) and start (moved by pruning). One row. */
export interface AuditChainTable {
  id: ColumnType<boolean, never, never>;
  head_seq: string;
  head_hash: string;
  /** The hash the newest row chains to (its prev_hash): what audit_append's one UPDATE answers. */
  head_prev_hash: string;
  start_seq: string;
  start_prev_hash: string;
}

// team-roles (issue 31)
/** One site role of a staff user: editor, contributor or reviewer on that site. */
export interface UserSiteGrantTable {
  user_id: string;
  site_id: string;
  role: SiteRole;
}

/** An invitation by e-mail: the role and grants the invitee gets on accepting; the token stored as sha256 hex. */
export interface InvitationTable {
  id: Generated<string>;
  email: string;
  role: Exclude<UserRole, 'publisher'>;
  grants: ColumnType<{ siteId: string; role: SiteRole }[], string | undefined, string>;
  token_hash: string;
  invited_by: string | null;
  expires_at: Timestamp;
  used_at: OptionalNullable<Date>;
  created_at: CreatedAt;
}

/** A one-time password reset link (sha256 hex of the token). */
export interface PasswordResetTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: OptionalNullable<Date>;
  created_at: CreatedAt;
}
