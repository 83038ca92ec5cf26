import { useId } from 'react';
import { type Control, useController } from 'react-hook-form';
import { Button } from '../../../components/button';

export interface MappingRow {
  key: number;
  from: string;
  to: string;
  drop: boolean;
}

/** The rows of the import rules' tag mapping: a feed category becomes one of our tags, or is dropped. */
export function TagMappingRows<V extends { tagMappings: MappingRow[] }>({
  control,
}: {
  control: Control<V>;
}) {
  const id = useId();
  // A form of any values that hold the rows: their name is known to exist.
  const rowsControl = control as unknown as Control<{ tagMappings: MappingRow[] }>;
  const { field, fieldState } = useController({ control: rowsControl, name: 'tagMappings' });
  const rows = field.value;
  const change = (key: number, patch: Partial<MappingRow>) =>
    field.onChange(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  // Keys only tell the rows apart for React: one more than the largest is new.
  const nextKey = rows.reduce((max, row) => Math.max(max, row.key + 1), 0);

  return (
    <fieldset className="field" aria-describedby={`${id}-mapping-hint`}>
      <legend className="field-label">Tag mapping</legend>
      <span id={`${id}-mapping-hint`} className="field-hint">
        A category of the feed becomes one of our tags, or is dropped. Other categories are kept as they are.
      </span>
      {rows.length > 0 && (
        <ul className="rule-mappings">
          {rows.map((row, index) => (
            <li key={row.key} className="rule-mapping">
              <input
                ref={index === 0 ? field.ref : undefined}
                type="text"
                className="input"
                aria-label={`Feed category ${index + 1}`}
                placeholder="Feed category"
                value={row.from}
                onChange={(e) => change(row.key, { from: e.target.value })}
              />
              <span aria-hidden="true">→</span>
              <input
                type="text"
                className="input"
                aria-label={`Our tag for feed category ${index + 1}`}
                placeholder={row.drop ? 'dropped' : 'Our tag'}
                value={row.drop ? '' : row.to}
                disabled={row.drop}
                onChange={(e) => change(row.key, { to: e.target.value })}
              />
              <label className="checkbox-field">
                <input
                  type="checkbox"
                  checked={row.drop}
                  onChange={(e) => change(row.key, { drop: e.target.checked })}
                />
                Drop
              </label>
              <Button
                size="small"
                variant="link"
                aria-label={`Remove mapping ${index + 1}`}
                onClick={() => field.onChange(rows.filter((r) => r.key !== row.key))}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <Button
          size="small"
          onClick={() => field.onChange([...rows, { key: nextKey, from: '', to: '', drop: false }])}
        >
          Add a mapping
        </Button>
      </div>
      {fieldState.error && <span className="field-error">{fieldState.error.message}</span>}
    </fieldset>
  );
}
