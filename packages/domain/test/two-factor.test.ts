import { createTestDatabase } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { ConflictError } from '../src/errors';
import { startDashboardSession } from '../src/users/sessions/dashboard-session.service';
import {
  completeSecondFactorChallenge,
  startSecondFactorChallenge,
} from '../src/users/two-factor/second-factor-challenge';
import { createSecretBox } from '../src/users/two-factor/secret-box';
import { updateSecuritySettings } from '../src/users/two-factor/security-settings';
import { base32Decode, hotp, matchTotpStep, totpAt, totpStepAt } from '../src/users/two-factor/totp';
import {
  checkSecondFactorCode,
  confirmTotpEnrolment,
  disableTwoFactor,
  getTwoFactorStatus,
  regenerateRecoveryCodes,
  secondFactorStanding,
  startTotpEnrolment,
} from '../src/users/two-factor/two-factor.service';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

const box = createSecretBox('test-secret-0123456789-0123456789');
// A controllable clock: every check takes `now`, so time steps are chosen, never waited for.
const t0 = new Date('2026-11-28T06:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

let counter = 0;
async function newUser() {
  counter += 1;
  const row = await db
    .insertInto('users')
    .values({ email: `totp-${counter}-${Date.now()}@example.com`, password_hash: 'x', role: 'admin' })
    .returning(['id', 'email', 'role'])
    .executeTakeFirstOrThrow();
  return row;
}

/** A user with a confirmed enrolment at t0; returns its raw secret and recovery codes. */
async function enrolledUser() {
  const user = await newUser();
  const { secret } = await startTotpEnrolment(db, box, user);
  const raw = base32Decode(secret);
  const confirmed = await db
    .transaction()
    .execute((tx) => confirmTotpEnrolment(tx, box, user.id, totpAt(raw, t0), t0));
  if (confirmed.outcome !== 'confirmed') throw new Error(confirmed.outcome);
  return { user, raw, recoveryCodes: confirmed.recoveryCodes };
}

describe('TOTP (RFC 4226 / RFC 6238 test vectors)', () => {
  const rfcSecret = Buffer.from('12345678901234567890');
  it('computes the RFC 4226 HOTP values', () => {
    expect([0, 1, 2, 3, 9].map((c) => hotp(rfcSecret, c))).toEqual([
      '755224',
      '287082',
      '359152',
      '969429',
      '520489',
    ]);
  });
  it('computes the RFC 6238 SHA-1 values (8 digits)', () => {
    const cases: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of cases) {
      expect(hotp(rfcSecret, totpStepAt(new Date(seconds * 1000)), 8)).toBe(code);
    }
  });
  it('accepts the previous and next step and nothing further', () => {
    const now = at(0);
    const step = totpStepAt(now);
    expect(matchTotpStep(rfcSecret, hotp(rfcSecret, step - 1), now)).toBe(step - 1);
    expect(matchTotpStep(rfcSecret, hotp(rfcSecret, step + 1), now)).toBe(step + 1);
    expect(matchTotpStep(rfcSecret, hotp(rfcSecret, step + 2), now)).toBeUndefined();
    expect(matchTotpStep(rfcSecret, hotp(rfcSecret, step - 2), now)).toBeUndefined();
  });
});

describe('enrolment', () => {
  it('stores the secret sealed, confirms with a code and answers ten recovery codes once', async () => {
    const user = await newUser();
    const started = await startTotpEnrolment(db, box, user);
    expect(started.otpauthUri).toContain(`secret=${started.secret}`);
    const row = await db
      .selectFrom('user_totp')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_encrypted.includes(base32Decode(started.secret))).toBe(false);
    expect(row.confirmed_at).toBeNull();

    const raw = base32Decode(started.secret);
    const wrong = await db
      .transaction()
      .execute((tx) => confirmTotpEnrolment(tx, box, user.id, '000000', t0));
    expect(wrong.outcome).toBe(hotp(raw, totpStepAt(t0)) === '000000' ? 'confirmed' : 'wrong-code');
    const confirmed = await db
      .transaction()
      .execute((tx) => confirmTotpEnrolment(tx, box, user.id, totpAt(raw, t0), t0));
    expect(confirmed.outcome).toBe('confirmed');
    if (confirmed.outcome !== 'confirmed') return;
    expect(confirmed.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.recoveryCodes).size).toBe(10);
    const stored = await db
      .selectFrom('user_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(stored.map((r) => r.code_hash.toString('utf8'))).not.toContain(confirmed.recoveryCodes[0]);
    expect(await getTwoFactorStatus(db, { id: user.id, role: 'admin' })).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
      required: false,
    });
    // A confirmed enrolment is not restarted (the secret is never shown again).
    await expect(startTotpEnrolment(db, box, user)).rejects.toThrow(ConflictError);
  });
});

describe('code checks', () => {
  it('accepts a code once: the same step again, or an earlier one, is a replay', async () => {
    const { user, raw } = await enrolledUser();
    // The confirmation used t0's step: its code is already spent.
    expect(await checkSecondFactorCode(db, box, user.id, totpAt(raw, t0), t0)).toEqual({
      outcome: 'replayed',
    });
    expect(await checkSecondFactorCode(db, box, user.id, totpAt(raw, at(30)), at(30))).toEqual({
      outcome: 'ok',
      method: 'totp',
    });
    expect(await checkSecondFactorCode(db, box, user.id, totpAt(raw, at(30)), at(35))).toEqual({
      outcome: 'replayed',
    });
    // An older step still inside the window is refused too: steps only move forward.
    expect(await checkSecondFactorCode(db, box, user.id, totpAt(raw, at(0)), at(40))).toEqual({
      outcome: 'replayed',
    });
  });

  it('locks code checks after five wrong codes, even the right one, until the lock ends; then doubles', async () => {
    const { user, raw } = await enrolledUser();
    const wrongCode = hotp(raw, totpStepAt(t0) + 50);
    for (let i = 0; i < 5; i += 1) {
      expect((await checkSecondFactorCode(db, box, user.id, wrongCode, at(60))).outcome).toBe('wrong');
    }
    const locked = await checkSecondFactorCode(db, box, user.id, totpAt(raw, at(90)), at(90));
    expect(locked).toEqual({ outcome: 'locked', until: at(60 + 15 * 60) });
    // After the lock: the right code works and the count starts again.
    const after = at(60 + 15 * 60 + 1);
    expect((await checkSecondFactorCode(db, box, user.id, totpAt(raw, after), after)).outcome).toBe('ok');
    for (let i = 0; i < 4; i += 1) {
      expect((await checkSecondFactorCode(db, box, user.id, wrongCode, after)).outcome).toBe('wrong');
    }
    expect((await checkSecondFactorCode(db, box, user.id, wrongCode, after)).outcome).toBe('wrong');
    const second = await checkSecondFactorCode(db, box, user.id, 'ABCD-EFGH-IJKL-MNOP', after);
    expect(second).toEqual({ outcome: 'locked', until: new Date(after.getTime() + 15 * 60_000) });
  });

  it('accepts each recovery code once, in any case and spacing, and regeneration replaces them', async () => {
    const { user, recoveryCodes } = await enrolledUser();
    const [first, second] = recoveryCodes as [string, string];
    expect(
      await checkSecondFactorCode(db, box, user.id, first.toLowerCase().replaceAll('-', ' '), at(5)),
    ).toEqual({
      outcome: 'ok',
      method: 'recovery-code',
    });
    expect((await checkSecondFactorCode(db, box, user.id, first, at(6))).outcome).toBe('wrong');
    expect((await getTwoFactorStatus(db, { id: user.id, role: 'admin' })).recoveryCodesLeft).toBe(9);
    const fresh = await regenerateRecoveryCodes(db, user.id);
    expect((await checkSecondFactorCode(db, box, user.id, second, at(7))).outcome).toBe('wrong');
    expect((await checkSecondFactorCode(db, box, user.id, fresh[0] as string, at(8))).outcome).toBe('ok');
  });

  it('disabling deletes the secret and the recovery codes', async () => {
    const { user, raw, recoveryCodes } = await enrolledUser();
    await disableTwoFactor(db, user.id);
    expect((await checkSecondFactorCode(db, box, user.id, totpAt(raw, at(30)), at(30))).outcome).toBe(
      'not-enrolled',
    );
    expect((await checkSecondFactorCode(db, box, user.id, recoveryCodes[0] as string, at(30))).outcome).toBe(
      'not-enrolled',
    );
    expect(
      await db.selectFrom('user_recovery_codes').select('id').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
  });
});

describe('half-verified sign-ins (challenges)', () => {
  it('completes with a right code once, for its own kind only', async () => {
    const { user, raw } = await enrolledUser();
    const { token } = await startSecondFactorChallenge(db, user.id, 'session', at(30));
    expect(await completeSecondFactorChallenge(db, box, token, 'token', totpAt(raw, at(30)), at(30))).toEqual(
      {
        outcome: 'invalid-challenge',
      },
    );
    const done = await completeSecondFactorChallenge(db, box, token, 'session', totpAt(raw, at(30)), at(30));
    expect(done).toMatchObject({ outcome: 'verified', method: 'totp', user: { id: user.id } });
    expect(
      (await completeSecondFactorChallenge(db, box, token, 'session', totpAt(raw, at(60)), at(60))).outcome,
    ).toBe('invalid-challenge');
  });

  it('allows five attempts per challenge, and none after it expires', async () => {
    const { user, raw } = await enrolledUser();
    const { token } = await startSecondFactorChallenge(db, user.id, 'token', at(30));
    const wrongCode = hotp(raw, totpStepAt(t0) + 50);
    const left = [];
    for (let i = 0; i < 4; i += 1) {
      const outcome = await completeSecondFactorChallenge(db, box, token, 'token', wrongCode, at(30));
      left.push(outcome.outcome === 'wrong-code' ? outcome.attemptsLeft : outcome.outcome);
    }
    expect(left).toEqual([4, 3, 2, 1]);
    // The fifth is the last: the challenge is gone whatever it brings.
    expect(await completeSecondFactorChallenge(db, box, token, 'token', wrongCode, at(30))).toMatchObject({
      outcome: 'wrong-code',
      attemptsLeft: 0,
    });
    expect(
      (await completeSecondFactorChallenge(db, box, token, 'token', totpAt(raw, at(60)), at(60))).outcome,
    ).toBe('invalid-challenge');
    const late = await startSecondFactorChallenge(db, user.id, 'token', at(100));
    expect(
      (await completeSecondFactorChallenge(db, box, late.token, 'token', totpAt(raw, at(400)), at(400)))
        .outcome,
    ).toBe('invalid-challenge');
  });
});

describe('standing and the policy', () => {
  it('tells verified, unverified, enrolment-required and not-needed apart', async () => {
    const { user } = await enrolledUser();
    const admin = { id: user.id, role: 'admin' as const };
    expect(await secondFactorStanding(db, admin, null)).toBe('unverified');
    expect(await secondFactorStanding(db, admin, at(-1))).toBe('unverified');
    expect(await secondFactorStanding(db, admin, t0)).toBe('verified');

    const plain = await newUser();
    expect(await secondFactorStanding(db, { id: plain.id, role: 'admin' }, null)).toBe('not-needed');
    await expect(updateSecuritySettings(db, plain, { requireAdminTwoFactor: true })).rejects.toThrow(
      ConflictError,
    );
    await updateSecuritySettings(db, user, { requireAdminTwoFactor: true });
    try {
      expect(await secondFactorStanding(db, { id: plain.id, role: 'admin' }, null)).toBe(
        'enrolment-required',
      );
      expect(await secondFactorStanding(db, { id: plain.id, role: 'publisher' }, null)).toBe('not-needed');
    } finally {
      await updateSecuritySettings(db, user, { requireAdminTwoFactor: false });
    }
  });

  it('a session started after the second step carries its verification time', async () => {
    const { user } = await enrolledUser();
    const session = await startDashboardSession(
      db,
      user,
      { idleMs: 60_000, maxAgeMs: 120_000 },
      at(1),
      at(1),
    );
    const row = await db
      .selectFrom('dashboard_sessions')
      .select('second_factor_at')
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(row.second_factor_at).toEqual(at(1));
  });
});
