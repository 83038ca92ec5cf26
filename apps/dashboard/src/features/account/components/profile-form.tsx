import { type Profile, useUpdateProfile } from '../../../api/account';
import { FormError, SubmitRow } from '../../../components/form/form-error';
import { FormTextField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';
import { useToast } from '../../../components/toaster';

/** The display name: the byline of the person's articles. Blank clears it. */
export function ProfileForm({ profile }: { profile: Profile }) {
  const toast = useToast();
  const { form, onSubmit, busy, formError } = useApiForm({
    defaultValues: { displayName: profile.displayName ?? '' },
    toBody: ({ displayName }) => ({ displayName: displayName.trim() === '' ? null : displayName.trim() }),
    schema: 'updateProfile',
    mutation: useUpdateProfile(),
    onSuccess: (saved, _values, reset) => {
      reset();
      form.reset({ displayName: saved.displayName ?? '' });
      toast({ kind: 'success', title: 'Your profile was saved' });
    },
  });
  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Profile">
      <FormError message={formError} />
      <FormTextField
        control={form.control}
        name="displayName"
        label="Display name"
        autoComplete="name"
        maxLength={100}
        hint="Shown as the byline of your articles. Up to 100 characters; leave it empty for none."
      />
      <SubmitRow label="Save profile" busy={busy} />
    </form>
  );
}
