import { type FormEvent, useState } from 'react';
import type { PublisherDetail } from '../../../api/publishers';
import { useCreatePublisher } from '../../../api/publishers';
import { Button } from '../../../components/button';
import { PasswordField } from '../../../components/password-field';
import { TextField } from '../../../components/text-field';
import { errorMessage } from '../../../lib/api-error';
import { fieldErrors } from '../../../lib/field-errors';

const fields = ['name', 'email', 'password'] as const;
const codeFields = {
  EMAIL_TAKEN: 'email',
  PASSWORD_TOO_SHORT: 'password',
  PASSWORD_TOO_LONG: 'password',
} as const;

/** Name, e-mail and password of a new publisher; the API's errors appear next to their field. */
export function CreatePublisherForm({ onCreated }: { onCreated(publisher: PublisherDetail): void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const create = useCreatePublisher();
  const errors = fieldErrors(create.error, fields, codeFields);
  const unplaced = create.isError && Object.keys(errors).length === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ name: name.trim(), email: email.trim(), password }, { onSuccess: onCreated });
  }

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="New publisher">
      {unplaced && (
        <div className="alert alert-error" role="alert">
          {errorMessage(create.error)}
        </div>
      )}
      <TextField
        label="Name"
        name="name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
        required
        hint="Shown as the source of its imported articles."
      />
      <TextField
        label="E-mail"
        name="email"
        type="email"
        autoComplete="off"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={errors.email}
        required
        hint="The publisher signs in with it."
      />
      <PasswordField label="Password" value={password} onChange={setPassword} error={errors.password} />
      <div className="row">
        <Button type="submit" variant="primary" busy={create.isPending}>
          Create publisher
        </Button>
      </div>
    </form>
  );
}
