import type { Control, FieldPathByValue, FieldValues } from 'react-hook-form';
import { FormTextField } from '../../../components/form/form-fields';

/** A code from the authenticator app: the browser's one-time-code field, a numeric keypad on phones. */
export function TotpCodeField<V extends FieldValues>({
  control,
  label = 'Code from the app',
  acceptsRecoveryCode = false,
}: {
  control: Control<V>;
  label?: string;
  acceptsRecoveryCode?: boolean;
}) {
  return (
    <FormTextField
      control={control}
      name={'code' as FieldPathByValue<V, string>}
      label={label}
      autoComplete="one-time-code"
      inputMode={acceptsRecoveryCode ? 'text' : 'numeric'}
      spellCheck={false}
      hint={acceptsRecoveryCode ? '6 digits, or one of your recovery codes' : '6 digits'}
      required
    />
  );
}
