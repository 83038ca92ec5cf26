import type { PublisherDetail } from '../../../api/publishers';
import { useCreatePublisher } from '../../../api/publishers';
import { FormError, SubmitRow } from '../../../components/form/form-error';
import { FormPasswordField, FormTextField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';

const codeFields = {
  EMAIL_TAKEN: 'email',
  PASSWORD_TOO_SHORT: 'password',
  PASSWORD_TOO_LONG: 'password',
} as const;

/** Name, e-mail and password of a new publisher; the API's errors appear next to their field. */
export function CreatePublisherForm({ onCreated }: { onCreated(publisher: PublisherDetail): void }) {
  const { form, onSubmit, busy, formError } = useApiForm({
    defaultValues: { name: '', email: '', password: '' },
    toBody: ({ name, email, password }) => ({ name: name.trim(), email: email.trim(), password }),
    schema: 'createPublisher',
    mutation: useCreatePublisher(),
    codeFields,
    onSuccess: onCreated,
  });
  const { control } = form;

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="New publisher">
      <FormError message={formError} />
      <FormTextField
        control={control}
        name="name"
        label="Name"
        required
        hint="Shown as the source of its imported articles."
      />
      <FormTextField
        control={control}
        name="email"
        label="E-mail"
        type="email"
        autoComplete="off"
        required
        hint="The publisher signs in with it."
      />
      <FormPasswordField control={control} name="password" label="Password" />
      <SubmitRow label="Create publisher" busy={busy} />
    </form>
  );
}
