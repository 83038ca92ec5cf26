import { Type } from 'typebox';

// The kinds of setting the variables use, and how their text becomes a value (the schemas have checked the form).

// Optional: 12 by default (10 under NODE_ENV=test, to keep the suite quick); never below 10 (OWASP).
export const BcryptCost = Type.Optional(
  Type.Integer({ minimum: 10, maximum: 15, description: 'bcrypt work factor of new password hashes, 10-15' }),
);
export const bcryptCostOf = (env: { NODE_ENV: string; BCRYPT_COST?: number | undefined }) =>
  env.BCRYPT_COST ?? (env.NODE_ENV === 'test' ? 10 : 12);

// Optional: 5 s by default in production (a few of a balancer's health checks), 0 elsewhere (no balancer:
// a developer's Ctrl-C, tests); at most a minute, since the process must still stop within its grace period.
// Read by the API (its config keeps it) and applied by `pnpm migrate`, which recomputes the search vectors.
export const SearchLanguage = Type.String({
  default: 'english',
  pattern: '^[a-z_]{1,63}$',
  description: 'Postgres text search configuration of the client search (english, french, simple, ...)',
});

export const ShutdownDrainMs = Type.Optional(
  Type.Integer({
    minimum: 0,
    maximum: 60_000,
    description: 'after SIGTERM, ms /ready answers 503 while requests are still served, 0-60000',
  }),
);
export const shutdownDrainMsOf = (env: { NODE_ENV: string; SHUTDOWN_DRAIN_MS?: number | undefined }) =>
  env.SHUTDOWN_DRAIN_MS ?? (env.NODE_ENV === 'production' ? 5_000 : 0);

// Believing X-Forwarded-For from anyone lets a client pick its own IP; trust only what is named.
export function trustProxyOf(value: string): boolean | number | string {
  if (value === 'true' || value === 'false') return value === 'true';
  return /^[0-9]+$/.test(value) ? Number(value) : value;
}

export const Milliseconds = (defaultValue: number, description: string, minimum = 0) =>
  Type.Integer({ default: defaultValue, minimum, maximum: 3_600_000, description: `${description}, ms` });

/** A rate limit as `<count>/<window>` (e.g. `10/1m`: at most 10 in any fixed minute), or `off`. */
export const RateLimitSetting = (defaultValue: string, description: string) =>
  Type.String({
    default: defaultValue,
    pattern: '^(off|[1-9][0-9]{0,8}/[1-9][0-9]{0,5}[smh])$',
    description: `${description}: <count>/<window> such as 10/1m (s, m or h), or off`,
  });

const windowUnitMs = { s: 1_000, m: 60_000, h: 3_600_000 } as const;

export function rateLimitOf(value: string): RateLimit | null {
  if (value === 'off') return null;
  const [count, window] = value.split('/') as [string, string];
  const unit = window.slice(-1) as keyof typeof windowUnitMs;
  return { max: Number(count), windowMs: Number(window.slice(0, -1)) * windowUnitMs[unit] };
}

const units = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** A duration as the variables write it (30m, 12h, 7d) in milliseconds; the schema has checked the form. */
export const durationMs = (value: string) =>
  Number.parseInt(value, 10) * units[value.slice(-1) as keyof typeof units];
export const Duration = (defaultValue: string, description: string) =>
  Type.String({ default: defaultValue, pattern: '^[1-9][0-9]*[smhd]$', description });

export const Url = (description: string) => Type.String({ pattern: '^[a-z][a-z0-9+.-]*://', description });

/** At most `max` requests in each fixed window of `windowMs`. */
export interface RateLimit {
  max: number;
  windowMs: number;
}
