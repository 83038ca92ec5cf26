import { type FormEvent, useId, useState } from 'react';
import type { PublisherDetail } from '../../../api/publishers';
import { useUpdatePublisher } from '../../../api/publishers';
import { Button } from '../../../components/button';
import { TagsInput, tagsToText, textToTags } from '../../../components/tags-input';
import { TextField } from '../../../components/text-field';
import { useToast } from '../../../components/toaster';
import { ApiError } from '../../../lib/api-error';
import { humanizeIssue } from '../../../lib/field-errors';

type ImportRules = PublisherDetail['importRules'];
type RuleField = keyof ImportRules;
const ruleFields: readonly RuleField[] = [
  'includeKeywords',
  'excludeKeywords',
  'tagMappings',
  'maxTags',
  'defaultCategory',
  'defaultSection',
  'maxNewItemsPerFetch',
];

interface MappingRow {
  key: number;
  from: string;
  to: string;
  drop: boolean;
}

/**
 * One message per rule from a refused save: INVALID_IMPORT_RULE names the rule at the start of its
 * message ("tagMappings[1].from: ..."); a schema error carries the path body/importRules/<rule>.
 */
export function ruleErrors(error: unknown): Partial<Record<RuleField, string>> {
  if (!(error instanceof ApiError)) return {};
  const result: Partial<Record<RuleField, string>> = {};
  const isRule = (name: string | undefined): name is RuleField => ruleFields.includes(name as RuleField);
  if (error.code === 'INVALID_IMPORT_RULE') {
    const rule = /^([A-Za-z]+)/.exec(error.message)?.[1];
    if (isRule(rule)) result[rule] = error.message.replace(/^[^:]*:\s*/, '');
  }
  for (const issue of error.details) {
    const rule = issue.path.split('/')[2];
    if (isRule(rule) && !result[rule]) result[rule] = humanizeIssue(issue.message, rule);
  }
  return result;
}

const numberOrNull = (text: string): number | null => (text.trim() === '' ? null : Number(text));

/** The administrator's import rules of a publisher: keywords, tag mapping and cap, defaults, new items per fetch. */
export function ImportRulesForm({ publisher }: { publisher: PublisherDetail }) {
  const id = useId();
  const toast = useToast();
  const update = useUpdatePublisher(publisher.id);
  const rules = publisher.importRules;
  const [include, setInclude] = useState(tagsToText(rules.includeKeywords));
  const [exclude, setExclude] = useState(tagsToText(rules.excludeKeywords));
  const [mappings, setMappings] = useState<MappingRow[]>(
    rules.tagMappings.map((m, key) => ({ key, from: m.from, to: m.to ?? '', drop: m.to === null })),
  );
  const [nextKey, setNextKey] = useState(rules.tagMappings.length);
  const [maxTags, setMaxTags] = useState(String(rules.maxTags));
  const [category, setCategory] = useState(rules.defaultCategory ?? '');
  const [section, setSection] = useState(rules.defaultSection ?? '');
  const [perFetch, setPerFetch] = useState(rules.maxNewItemsPerFetch?.toString() ?? '');
  const errors = ruleErrors(update.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate(
      {
        importRules: {
          includeKeywords: textToTags(include),
          excludeKeywords: textToTags(exclude),
          tagMappings: mappings
            .filter((m) => m.from.trim() !== '' || m.to.trim() !== '')
            .map((m) => ({ from: m.from, to: m.drop ? null : m.to })),
          maxTags: Number(maxTags),
          defaultCategory: category.trim() || null,
          defaultSection: section.trim() || null,
          maxNewItemsPerFetch: numberOrNull(perFetch),
        },
      },
      { onSuccess: () => toast({ kind: 'success', title: 'Import rules saved' }) },
    );
  }

  const change = (key: number, patch: Partial<MappingRow>) =>
    setMappings((rows) => rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const addMapping = () => {
    setMappings((rows) => [...rows, { key: nextKey, from: '', to: '', drop: false }]);
    setNextKey((key) => key + 1);
  };

  return (
    <form className="stack" onSubmit={submit} aria-label="Import rules">
      <TagsInput
        label="Import only items with"
        value={include}
        onChange={setInclude}
        error={errors.includeKeywords}
        hint="Keywords or phrases, separated by commas: whole words, any case, in the title or text. Empty: every item."
      />
      <TagsInput
        label="Skip items with"
        value={exclude}
        onChange={setExclude}
        error={errors.excludeKeywords}
        hint="Checked first: an item with one of these is never imported."
      />
      <fieldset className="field" aria-describedby={`${id}-mapping-hint`}>
        <legend className="field-label">Tag mapping</legend>
        <span id={`${id}-mapping-hint`} className="field-hint">
          A category of the feed becomes one of our tags, or is dropped. Other categories are kept as they
          are.
        </span>
        {mappings.length > 0 && (
          <ul className="rule-mappings">
            {mappings.map((row, index) => (
              <li key={row.key} className="rule-mapping">
                <input
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
                  onClick={() => setMappings((rows) => rows.filter((r) => r.key !== row.key))}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <div className="row">
          <Button size="small" onClick={addMapping}>
            Add a mapping
          </Button>
        </div>
        {errors.tagMappings && <span className="field-error">{errors.tagMappings}</span>}
      </fieldset>
      <div className="rule-grid">
        <TextField
          label="Tags per article"
          type="number"
          className="input"
          min={1}
          max={20}
          value={maxTags}
          onChange={(e) => setMaxTags(e.target.value)}
          error={errors.maxTags}
          hint="1 to 20; the default tags come first."
        />
        <TextField
          label="New items per fetch"
          type="number"
          className="input"
          min={1}
          max={1000}
          value={perFetch}
          onChange={(e) => setPerFetch(e.target.value)}
          error={errors.maxNewItemsPerFetch}
          hint="Oldest first; the rest wait for the next fetch. Empty: no limit."
        />
        <TextField
          label="Default category"
          value={category}
          onChange={(e) => setCategory(e.target.value)}
          error={errors.defaultCategory}
          hint="Given to every imported article."
        />
        <TextField
          label="Default section"
          value={section}
          onChange={(e) => setSection(e.target.value)}
          error={errors.defaultSection}
          hint="Given to every imported article."
        />
      </div>
      <div className="row">
        <Button type="submit" variant="primary" busy={update.isPending}>
          Save rules
        </Button>
      </div>
    </form>
  );
}
