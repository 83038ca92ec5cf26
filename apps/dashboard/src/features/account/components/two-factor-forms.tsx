import { lazy, Suspense } from 'react';
import {
  type TotpSetup,
  useConfirmTotp,
  useDisableTwoFactor,
  useRegenerateRecoveryCodes,
} from '../../../api/account';
import { Button } from '../../../components/button';
import { FormError, SubmitRow } from '../../../components/form/form-error';
import { FormTextField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';
import { TotpCodeField } from './totp-code-field';

// The QR library (~21 kB) loads with the enrolment, not with every page: few visits ever set up a key.
const QrCode = lazy(() => import('./qr-code').then((module) => ({ default: module.QrCode })));
const qrSize = 208;

const codeFields = {
  INVALID_SECOND_FACTOR_CODE: 'code',
  SECOND_FACTOR_CODE_USED: 'code',
  INVALID_CREDENTIALS: 'password',
};

/** The key in groups of four, as it is typed into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** Enrolment: scan the QR code (or type the key), then confirm with the first code. */
export function EnrolTotpForm({
  setup,
  onConfirmed,
  onCancel,
}: {
  setup: TotpSetup;
  onConfirmed(recoveryCodes: string[]): void;
  onCancel(): void;
}) {
  const { form, onSubmit, busy, formError } = useApiForm({
    defaultValues: { code: '' },
    toBody: ({ code }) => ({ code: code.trim() }),
    schema: 'totpCode',
    mutation: useConfirmTotp(),
    codeFields,
    onSuccess: (result) => onConfirmed(result.recoveryCodes),
  });
  return (
    <div className="stack">
      <ol className="stack enrol-steps">
        <li>
          <p>Scan this QR code with an authenticator app (1Password, Google Authenticator, Authy, …):</p>
          {/* The placeholder keeps the code's place while its library loads, so nothing below moves. */}
          <Suspense fallback={<div className="qr-code" style={{ width: qrSize, height: qrSize }} />}>
            <QrCode value={setup.otpauthUri} label="QR code of your two-factor key" size={qrSize} />
          </Suspense>
        </li>
        <li>
          <p>
            Cannot scan? Type this key into the app instead (time-based, 6 digits):{' '}
            <code className="totp-secret" data-testid="totp-secret">
              {grouped(setup.secret)}
            </code>
          </p>
        </li>
        <li>
          <form
            className="stack"
            onSubmit={onSubmit}
            noValidate
            aria-label="Confirm two-factor authentication"
          >
            <p>Type the code the app shows now:</p>
            <FormError message={formError} />
            <TotpCodeField control={form.control} />
            <SubmitRow label="Turn on" busy={busy}>
              <Button onClick={onCancel}>Cancel</Button>
            </SubmitRow>
          </form>
        </li>
      </ol>
    </div>
  );
}

/** New recovery codes (the old ones stop working), with a current code from the app. */
export function RegenerateCodesForm({
  onDone,
  onCancel,
}: {
  onDone(recoveryCodes: string[]): void;
  onCancel(): void;
}) {
  const { form, onSubmit, busy, formError } = useApiForm({
    defaultValues: { code: '' },
    toBody: ({ code }) => ({ code: code.trim() }),
    schema: 'totpCode',
    mutation: useRegenerateRecoveryCodes(),
    codeFields,
    onSuccess: (result) => onDone(result.recoveryCodes),
  });
  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="New recovery codes">
      <p>Your current recovery codes stop working once the new ones are made.</p>
      <FormError message={formError} />
      <TotpCodeField control={form.control} />
      <SubmitRow label="Make new recovery codes" busy={busy}>
        <Button onClick={onCancel}>Cancel</Button>
      </SubmitRow>
    </form>
  );
}

/** Turning it off asks for the password and a code (or a recovery code). */
export function DisableTwoFactorForm({ onDone, onCancel }: { onDone(): void; onCancel(): void }) {
  const { form, onSubmit, busy, formError } = useApiForm({
    defaultValues: { password: '', code: '' },
    toBody: ({ password, code }) => ({ password, code: code.trim() }),
    schema: 'disableTwoFactor',
    mutation: useDisableTwoFactor(),
    codeFields,
    onSuccess: onDone,
  });
  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Turn off two-factor authentication">
      <p>Without it, your password alone signs you in.</p>
      <FormError message={formError} />
      <FormTextField
        control={form.control}
        name="password"
        inputName="current-password"
        label="Your password"
        type="password"
        autoComplete="current-password"
        required
      />
      <TotpCodeField control={form.control} acceptsRecoveryCode />
      <SubmitRow label="Turn off" variant="danger" busy={busy}>
        <Button onClick={onCancel}>Cancel</Button>
      </SubmitRow>
    </form>
  );
}
