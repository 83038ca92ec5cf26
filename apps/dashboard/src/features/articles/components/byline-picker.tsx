import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { bylinePeopleQuery } from '../../../api/byline-people';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/text-field';
import type { DraftByline } from './article-draft';

/** A byline may hold at most this many authors (the API's limit). */
const maxBylines = 20;

/**
 * The bylines in print order: staff members (picked from the team's display names, credited by id) and free
 * names (agencies, guests), each reorderable with its up and down buttons.
 */
export function BylinePicker({
  bylines,
  onChange,
}: {
  bylines: DraftByline[];
  onChange(bylines: DraftByline[]): void;
}) {
  const id = useId();
  const people = useQuery(bylinePeopleQuery);
  const [picked, setPicked] = useState('');
  const credited = new Set(bylines.map((b) => b.userId).filter((userId) => userId !== null));
  const offered = (people.data?.data ?? []).filter((person) => !credited.has(person.id));
  const full = bylines.length >= maxBylines;

  const update = (index: number, change: Partial<DraftByline>) =>
    onChange(bylines.map((b, i) => (i === index ? { ...b, ...change } : b)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...bylines];
    const [moved] = next.splice(index, 1);
    if (moved) next.splice(index + by, 0, moved);
    onChange(next);
  };
  function addStaff() {
    const person = offered.find((p) => p.id === picked);
    if (!person) return;
    onChange([...bylines, { name: person.name, url: '', userId: person.id }]);
    setPicked('');
  }

  return (
    <fieldset className="field bylines">
      <legend>Bylines</legend>
      {bylines.length === 0 && <p className="muted">No byline yet.</p>}
      <ol className="stack">
        {bylines.map((byline, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the index is their identity
          <li key={index} className="row byline-row">
            {byline.userId ? (
              <p className="byline-staff">
                <span>{byline.name}</span> <span className="muted">(staff)</span>
              </p>
            ) : (
              <TextField
                label={`Author ${index + 1} name`}
                value={byline.name}
                maxLength={200}
                onChange={(event) => update(index, { name: event.target.value })}
              />
            )}
            <TextField
              label={`Author ${index + 1} link`}
              type="url"
              placeholder="https://"
              value={byline.url}
              onChange={(event) => update(index, { url: event.target.value })}
            />
            <Button
              size="small"
              disabled={index === 0}
              aria-label={`Move author ${index + 1} up`}
              onClick={() => move(index, -1)}
            >
              ↑
            </Button>
            <Button
              size="small"
              disabled={index === bylines.length - 1}
              aria-label={`Move author ${index + 1} down`}
              onClick={() => move(index, 1)}
            >
              ↓
            </Button>
            <Button
              size="small"
              aria-label={`Remove author ${index + 1}`}
              onClick={() => onChange(bylines.filter((_, i) => i !== index))}
            >
              Remove
            </Button>
          </li>
        ))}
      </ol>
      <div className="row byline-add">
        {offered.length > 0 && (
          <>
            <label htmlFor={`${id}-staff`}>Team member</label>
            <select id={`${id}-staff`} value={picked} onChange={(event) => setPicked(event.target.value)}>
              <option value="">Choose a team member…</option>
              {offered.map((person) => (
                <option key={person.id} value={person.id}>
                  {person.name}
                </option>
              ))}
            </select>
            <Button size="small" disabled={full || picked === ''} onClick={addStaff}>
              Add team member
            </Button>
          </>
        )}
        <Button
          size="small"
          disabled={full}
          onClick={() => onChange([...bylines, { name: '', url: '', userId: null }])}
        >
          Add byline
        </Button>
      </div>
    </fieldset>
  );
}
