import { type BaseSyntheticEvent, useState } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import { errorMessage } from '../../lib/api-error';
import { fieldErrors } from '../../lib/field-errors';
import { refusalOf } from '../../lib/form/request-error';
import type { RequestSchemaName } from '../../lib/form/request-schemas.generated';

/** What a form sends with: a TanStack mutation (its `isPending` is the submit button's busy state). */
export interface FormMutation<B, R> {
  mutateAsync(body: B): Promise<R>;
  isPending: boolean;
}

export interface ApiFormOptions<V extends FieldValues, B, R> {
  defaultValues: DefaultValues<V>;
  /** The API's request body from the form's values (trimmed, lists split...): what is validated and sent. */
  toBody(values: V): B;
  /** The API's schema of that body (generated from its OpenAPI document), checked before anything is sent. */
  schema: RequestSchemaName;
  mutation: FormMutation<B, R>;
  /** Error codes that name one field (`EMAIL_TAKEN` -> `email`): their message is shown there (a field the form lacks: as the form's). */
  codeFields?: Partial<Record<string, string>>;
  /** Where a refusal's messages go, when the body's fields are not the form's (default: by the same names). */
  errorsOf?(error: unknown): Partial<Record<Path<V>, string>>;
  /** After a success; `reset` puts the form back to its defaults (a create form starting again). */
  onSuccess?(result: R, values: V, reset: () => void): void;
}

export interface ApiForm<V extends FieldValues> {
  form: UseFormReturn<V>;
  /** The <form>'s onSubmit: validate, send, place the refusal's messages on their fields (the first focused). */
  onSubmit(event?: BaseSyntheticEvent): Promise<void>;
  /** An onSubmit that decides first (e.g. asks before sending); it calls `send` itself. */
  handleSubmit(onValid: (values: V) => unknown): (event?: BaseSyntheticEvent) => Promise<void>;
  /** Validates and sends the values (a confirmation dialog's "Save anyway" after the submit). */
  send(values: V): Promise<void>;
  busy: boolean;
  /** The last refusal (the browser's or the API's), until the next submit. */
  failure: unknown;
  /** The refusal's message when no field shows it (a conflict, a network failure, a rule of the server). */
  formError: string | null;
}

/**
 * The dashboard's one way to run a create/edit form (react-hook-form for the values): the body is checked
 * against the API's own schema in the browser, then sent; a 400 made here and a 400 (or a field's error
 * code) from the API land on their fields through the same placement, in words; anything else is the
 * form's error. Submitting again clears the previous messages.
 */
export function useApiForm<V extends FieldValues, B, R>(options: ApiFormOptions<V, B, R>): ApiForm<V> {
  const form = useForm<V>({
    defaultValues: options.defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const [failure, setFailure] = useState<unknown>(null);
  const [unplaced, setUnplaced] = useState(false);
  const fields = Object.keys(options.defaultValues ?? {}) as Path<V>[];
  const errorsOf =
    options.errorsOf ??
    ((error: unknown) =>
      fieldErrors(error, fields, (options.codeFields ?? {}) as Partial<Record<string, Path<V>>>));

  function fail(error: unknown) {
    setFailure(error);
    const placed = errorsOf(error) as Partial<Record<Path<V>, string>>;
    const named = fields.filter((field) => placed[field]);
    setUnplaced(named.length === 0);
    named.forEach((field, index) => {
      form.setError(field, { type: 'refused', message: placed[field] }, { shouldFocus: index === 0 });
    });
  }

  async function send(values: V) {
    setFailure(null);
    const body = options.toBody(values);
    const refusal = refusalOf(options.schema, body);
    if (refusal) return fail(refusal);
    try {
      const result = await options.mutation.mutateAsync(body);
      options.onSuccess?.(result, values, () => form.reset());
    } catch (error) {
      fail(error);
    }
  }

  const handleSubmit = (onValid: (values: V) => unknown) => (event?: BaseSyntheticEvent) => {
    // Messages placed on fields that have no rule of their own would otherwise block the next submit.
    form.clearErrors();
    return form.handleSubmit(async (values) => {
      await onValid(values);
    })(event);
  };

  return {
    form,
    onSubmit: handleSubmit(send),
    handleSubmit,
    send,
    busy: options.mutation.isPending,
    failure,
    formError: failure !== null && unplaced ? errorMessage(failure) : null,
  };
}
