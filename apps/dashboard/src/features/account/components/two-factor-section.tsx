import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  type TotpSetup,
  twoFactorStatusQuery,
  useRefreshTwoFactor,
  useStartTotpSetup,
} from '../../../api/account';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form/form-error';
import { ErrorState, LoadingState } from '../../../components/states';
import { useToast } from '../../../components/toaster';
import { errorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { DisableTwoFactorForm, EnrolTotpForm, RegenerateCodesForm } from './two-factor-forms';

type Step =
  | { name: 'overview' }
  | { name: 'enrol'; setup: TotpSetup }
  | { name: 'codes'; codes: string[]; turnedOn: boolean }
  | { name: 'regenerate' }
  | { name: 'disable' };

/** Two-factor authentication of the signed-in staff user: turn on (QR code), recovery codes, turn off. */
export function TwoFactorSection() {
  const status = useQuery(twoFactorStatusQuery);
  const refresh = useRefreshTwoFactor();
  const toast = useToast();
  const startSetup = useStartTotpSetup();
  const [step, setStep] = useState<Step>({ name: 'overview' });

  if (status.isPending) return <LoadingState />;
  if (status.isError) return <ErrorState error={status.error} onRetry={() => status.refetch()} />;
  const { enabled, required, recoveryCodesLeft, confirmedAt } = status.data;
  const overview = () => setStep({ name: 'overview' });

  switch (step.name) {
    case 'enrol':
      return (
        <EnrolTotpForm
          setup={step.setup}
          onConfirmed={(codes) => setStep({ name: 'codes', codes, turnedOn: true })}
          onCancel={overview}
        />
      );
    case 'codes':
      return (
        <div className="stack">
          {step.turnedOn && (
            <p className="alert alert-success" role="status">
              Two-factor authentication is on. Signing in now asks for a code from your app.
            </p>
          )}
          <RecoveryCodesPanel
            codes={step.codes}
            onDone={() => {
              overview();
              void refresh();
            }}
          />
        </div>
      );
    case 'regenerate':
      return (
        <RegenerateCodesForm
          onDone={(codes) => setStep({ name: 'codes', codes, turnedOn: false })}
          onCancel={overview}
        />
      );
    case 'disable':
      return (
        <DisableTwoFactorForm
          onDone={() => {
            overview();
            toast({ kind: 'success', title: 'Two-factor authentication is off' });
          }}
          onCancel={overview}
        />
      );
  }

  if (!enabled) {
    return (
      <div className="stack">
        {required && (
          <p className="alert alert-warning" role="alert">
            Your newsroom requires two-factor authentication for administrators. Turn it on to continue: the
            rest of the dashboard opens once it is on.
          </p>
        )}
        <p>
          Two-factor authentication is <strong>off</strong>. With it on, signing in asks for your password and
          a code from an authenticator app on your phone.
        </p>
        <FormError message={startSetup.isError ? errorMessage(startSetup.error) : null} />
        <div className="row">
          <Button
            variant="primary"
            busy={startSetup.isPending}
            onClick={async () => setStep({ name: 'enrol', setup: await startSetup.mutateAsync() })}
          >
            Set up two-factor authentication
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div className="stack">
      <p>
        Two-factor authentication is <strong>on</strong>
        {confirmedAt && <> (turned on {formatDateTime(confirmedAt)})</>}. {recoveryCodesLeft} of 10 recovery
        codes left{recoveryCodesLeft <= 3 && ': make new ones soon'}.
      </p>
      <div className="row">
        <Button onClick={() => setStep({ name: 'regenerate' })}>New recovery codes</Button>
        <Button variant="danger" onClick={() => setStep({ name: 'disable' })}>
          Turn off
        </Button>
      </div>
    </div>
  );
}
