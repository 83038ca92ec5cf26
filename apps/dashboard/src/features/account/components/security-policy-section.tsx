import { useQuery } from '@tanstack/react-query';
import { securitySettingsQuery, useUpdateSecuritySettings } from '../../../api/account';
import { FormError } from '../../../components/form/form-error';
import { ErrorState, LoadingState } from '../../../components/states';
import { errorMessage } from '../../../lib/api-error';

/** Administrators: require two-factor authentication of every administrator (saved at once). */
export function SecurityPolicySection() {
  const settings = useQuery(securitySettingsQuery);
  const update = useUpdateSecuritySettings();
  if (settings.isPending) return <LoadingState />;
  if (settings.isError) return <ErrorState error={settings.error} onRetry={() => settings.refetch()} />;
  const required = update.isPending
    ? !settings.data.requireAdminTwoFactor
    : settings.data.requireAdminTwoFactor;
  return (
    <div className="stack">
      <FormError message={update.isError ? errorMessage(update.error) : null} />
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={required}
          aria-busy={update.isPending}
          onChange={(event) => {
            if (!update.isPending) update.mutate({ requireAdminTwoFactor: event.target.checked });
          }}
        />
        Require two-factor authentication for every administrator
      </label>
      <p className="field-hint">
        An administrator without it is sent to set it up before anything else. Turn yours on first.
      </p>
    </div>
  );
}
