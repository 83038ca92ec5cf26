import type { ReactNode } from 'react';
import type { Control } from 'react-hook-form';
import { FormTextField } from '../../../components/form/form-fields';

/** The text of a site's name, slug and domain, as both site forms hold it. */
export interface SiteIdentity {
  name: string;
  slug: string;
  domain: string;
}

/** Name, slug and domain: the fields the create and edit forms share. */
export function SiteIdentityFields<V extends SiteIdentity>({
  control,
  slugHint,
  domainHint,
  required,
  onNameChange,
  onSlugChange,
}: {
  control: Control<V>;
  slugHint?: ReactNode;
  domainHint: string;
  required?: boolean;
  onNameChange?(name: string): void;
  onSlugChange?(slug: string): void;
}) {
  // A form of any values that hold these three: their names are known to exist.
  const fields = control as unknown as Control<SiteIdentity>;
  return (
    <>
      <FormTextField
        control={fields}
        name="name"
        label="Site name"
        required={required}
        {...(onNameChange && { onValueChange: onNameChange })}
      />
      <FormTextField
        control={fields}
        name="slug"
        label="Slug"
        required={required}
        hint={slugHint}
        {...(onSlugChange && { onValueChange: onSlugChange })}
      />
      <FormTextField
        control={fields}
        name="domain"
        label="Domain"
        placeholder="news.example.com"
        hint={domainHint}
      />
    </>
  );
}
