import type { PublisherDetail } from '../../../api/publishers';
import { useUpdatePublisher } from '../../../api/publishers';
import { SubmitRow } from '../../../components/form/form-error';
import { FormTagsField, FormTextField } from '../../../components/form/form-fields';
import { useApiForm } from '../../../components/form/use-api-form';
import { tagsToText, textToTags } from '../../../components/tags-input';
import { useToast } from '../../../components/toaster';
import { ApiError } from '../../../lib/api-error';
import { humanizeIssue } from '../../../lib/field-errors';
import { type MappingRow, TagMappingRows } from './tag-mapping-rows';

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

/** The rules as the form holds them: lists and numbers as text, the mapping as rows. */
function rulesForm(rules: ImportRules) {
  return {
    includeKeywords: tagsToText(rules.includeKeywords),
    excludeKeywords: tagsToText(rules.excludeKeywords),
    tagMappings: rules.tagMappings.map(
      (m, key): MappingRow => ({ key, from: m.from, to: m.to ?? '', drop: m.to === null }),
    ),
    maxTags: String(rules.maxTags),
    maxNewItemsPerFetch: rules.maxNewItemsPerFetch?.toString() ?? '',
    defaultCategory: rules.defaultCategory ?? '',
    defaultSection: rules.defaultSection ?? '',
  };
}

/** The form's rules as the API's: empty mapping rows left out, empty texts as null. */
function rulesBody(values: ReturnType<typeof rulesForm>): ImportRules {
  return {
    includeKeywords: textToTags(values.includeKeywords),
    excludeKeywords: textToTags(values.excludeKeywords),
    tagMappings: values.tagMappings
      .filter((m) => m.from.trim() !== '' || m.to.trim() !== '')
      .map((m) => ({ from: m.from, to: m.drop ? null : m.to })),
    maxTags: Number(values.maxTags),
    defaultCategory: values.defaultCategory.trim() || null,
    defaultSection: values.defaultSection.trim() || null,
    maxNewItemsPerFetch: numberOrNull(values.maxNewItemsPerFetch),
  };
}

/** The administrator's import rules of a publisher: keywords, tag mapping and cap, defaults, new items per fetch. */
export function ImportRulesForm({ publisher }: { publisher: PublisherDetail }) {
  const toast = useToast();
  const { form, onSubmit, busy } = useApiForm({
    defaultValues: rulesForm(publisher.importRules),
    toBody: (values) => ({ importRules: rulesBody(values) }),
    schema: 'updatePublisher',
    mutation: useUpdatePublisher(publisher.id),
    errorsOf: ruleErrors,
    onSuccess: () => toast({ kind: 'success', title: 'Import rules saved' }),
  });
  const { control } = form;

  return (
    <form className="stack" onSubmit={onSubmit} aria-label="Import rules">
      <FormTagsField
        control={control}
        name="includeKeywords"
        label="Import only items with"
        hint="Keywords or phrases, separated by commas: whole words, any case, in the title or text. Empty: every item."
      />
      <FormTagsField
        control={control}
        name="excludeKeywords"
        label="Skip items with"
        hint="Checked first: an item with one of these is never imported."
      />
      <TagMappingRows control={control} />
      <div className="rule-grid">
        <FormTextField
          control={control}
          name="maxTags"
          label="Tags per article"
          type="number"
          className="input"
          min={1}
          max={20}
          hint="1 to 20; the default tags come first."
        />
        <FormTextField
          control={control}
          name="maxNewItemsPerFetch"
          label="New items per fetch"
          type="number"
          className="input"
          min={1}
          max={1000}
          hint="Oldest first; the rest wait for the next fetch. Empty: no limit."
        />
        <FormTextField
          control={control}
          name="defaultCategory"
          label="Default category"
          hint="Given to every imported article."
        />
        <FormTextField
          control={control}
          name="defaultSection"
          label="Default section"
          hint="Given to every imported article."
        />
      </div>
      <SubmitRow label="Save rules" busy={busy} />
    </form>
  );
}
