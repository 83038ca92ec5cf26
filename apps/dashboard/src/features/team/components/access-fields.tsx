import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';
import { siteChoicesQuery } from '../../../api/sites';
import type { StaffRole } from '../../../api/team';
import { describedBy, FieldNotes } from '../../../components/field-notes';
import { SiteChoicesState } from '../../../components/site-checkboxes';

// The role and the per-site grants of a staff user, shared by the invite form and the access form. Grants
// are a choice per site ("No access" or a site role); an administrator holds none (it may do everything).

export type SiteRoleChoice = '' | 'editor' | 'contributor' | 'reviewer';
export interface AccessValues {
  role: StaffRole;
  /** site id -> its role, '' for none */
  grants: Record<string, SiteRoleChoice>;
}

export const roleNames: Record<StaffRole, string> = {
  admin: 'Administrator',
  editor: 'Editor',
  contributor: 'Contributor',
  reviewer: 'Reviewer',
};
const roleHints: Record<StaffRole, string> = {
  admin: 'Everything, on every site: no grants needed.',
  editor: 'Writes, publishes and reviews on the sites granted below.',
  contributor: 'Writes drafts and submits them for review; never publishes.',
  reviewer: 'Approves, rejects or sends back articles of the sites granted below.',
};

/** The API's body from the form's values: the chosen grants, none for an administrator. */
export function accessBody({ role, grants }: AccessValues) {
  return {
    role,
    grants:
      role === 'admin'
        ? []
        : Object.entries(grants)
            .filter((entry): entry is [string, Exclude<SiteRoleChoice, ''>] => entry[1] !== '')
            .map(([siteId, siteRole]) => ({ siteId, role: siteRole })),
  };
}

export function AccessFields<V extends FieldValues & AccessValues>({ control }: { control: Control<V> }) {
  const id = useId();
  const role = useController({ control, name: 'role' as Path<V> });
  const grants = useController({ control, name: 'grants' as Path<V> });
  const sites = useQuery(siteChoicesQuery);
  const value = grants.field.value as AccessValues['grants'];
  const hint = roleHints[role.field.value as StaffRole];
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-role`}>Role</label>
        <select
          id={`${id}-role`}
          ref={role.field.ref}
          value={role.field.value}
          onChange={(event) => role.field.onChange(event.target.value)}
          aria-invalid={role.fieldState.error ? true : undefined}
          aria-describedby={describedBy(`${id}-role`, hint, role.fieldState.error?.message)}
        >
          {(Object.keys(roleNames) as StaffRole[]).map((name) => (
            <option key={name} value={name}>
              {roleNames[name]}
            </option>
          ))}
        </select>
        <FieldNotes id={`${id}-role`} hint={hint} error={role.fieldState.error?.message} />
      </div>
      {role.field.value !== 'admin' && (
        <fieldset className="field team-grants">
          <legend className="field-label">Sites</legend>
          <span className="field-hint">
            The role on each site; sites left at “No access” are not shown to them.
          </span>
          <SiteChoicesState sites={sites}>
            {(list) => (
              <div className="team-grant-list">
                {list.map((site, index) => (
                  <label key={site.id} className="team-grant">
                    <span>{site.name}</span>
                    <select
                      ref={index === 0 ? grants.field.ref : undefined}
                      value={value[site.id] ?? ''}
                      aria-label={`Role on ${site.name}`}
                      onChange={(event) =>
                        grants.field.onChange({ ...value, [site.id]: event.target.value as SiteRoleChoice })
                      }
                    >
                      <option value="">No access</option>
                      <option value="editor">Editor</option>
                      <option value="contributor">Contributor</option>
                      <option value="reviewer">Reviewer</option>
                    </select>
                  </label>
                ))}
              </div>
            )}
          </SiteChoicesState>
          {grants.fieldState.error?.message && (
            <span className="field-error" role="alert">
              {grants.fieldState.error.message}
            </span>
          )}
        </fieldset>
      )}
    </>
  );
}
