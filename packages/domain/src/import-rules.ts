import { DomainValidationError } from './errors';

/** A source category mapped to one of our tags, or dropped (`to: null`). */
export interface TagMapping {
  from: string;
  to: string | null;
}

/** What an administrator decides about a publisher's feed items. Stored as `publishers.import_rules`. */
export interface ImportRules {
  /** When not empty, an item is imported only if its title or text has one of these (whole words, any case). */
  includeKeywords: string[];
  /** An item whose title or text has one of these (whole words, any case) is skipped. Checked first. */
  excludeKeywords: string[];
  /** Source categories (matched case-insensitively) renamed to one of our tags, or dropped. */
  tagMappings: TagMapping[];
  /** Tags kept per article (defaults first), 1-20. */
  maxTags: number;
  defaultCategory: string | null;
  defaultSection: string | null;
  /** New articles saved per fetch at most, oldest first; the rest wait for the next fetch. Null: no cap. */
  maxNewItemsPerFetch: number | null;
}

export const importRuleLimits = {
  keywords: 50,
  keywordLength: 100,
  tagMappings: 200,
  tagLength: 60,
  categoryLength: 100,
  maxTags: 20,
  maxNewItemsPerFetch: 1000,
} as const;

export const defaultImportRules: ImportRules = {
  includeKeywords: [],
  excludeKeywords: [],
  tagMappings: [],
  maxTags: importRuleLimits.maxTags,
  defaultCategory: null,
  defaultSection: null,
  maxNewItemsPerFetch: null,
};

/** The input of a rules edit: any field left out takes its default. */
export type ImportRulesInput = Partial<ImportRules>;

const invalid = (rule: string, message: string) =>
  new DomainValidationError('INVALID_IMPORT_RULE', `${rule}: ${message}`);

const collapse = (text: string) => text.trim().replace(/\s+/g, ' ');

function keywordList(rule: 'includeKeywords' | 'excludeKeywords', raw: readonly string[]): string[] {
  if (raw.length > importRuleLimits.keywords) {
    throw invalid(rule, `at most ${importRuleLimits.keywords} keywords`);
  }
  const seen = new Set<string>();
  const keywords: string[] = [];
  raw.forEach((entry, index) => {
    const keyword = collapse(entry);
    if (!keyword) throw invalid(`${rule}[${index}]`, 'a keyword cannot be empty');
    if (keyword.length > importRuleLimits.keywordLength) {
      throw invalid(
        `${rule}[${index}]`,
        `a keyword has at most ${importRuleLimits.keywordLength} characters`,
      );
    }
    if (!/[\p{L}\p{N}]/u.test(keyword)) {
      throw invalid(`${rule}[${index}]`, `"${keyword}" has no letter or digit, so it matches no word`);
    }
    const key = keyword.toLocaleLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    keywords.push(keyword);
  });
  return keywords;
}

function label(rule: string, raw: string | null | undefined, maxLength: number): string | null {
  if (raw === null || raw === undefined) return null;
  const value = collapse(raw);
  if (!value) return null;
  if (value.length > maxLength) throw invalid(rule, `at most ${maxLength} characters`);
  return value;
}

function tagMappingList(raw: readonly TagMapping[]): TagMapping[] {
  if (raw.length > importRuleLimits.tagMappings) {
    throw invalid('tagMappings', `at most ${importRuleLimits.tagMappings} mappings`);
  }
  const seen = new Set<string>();
  return raw.map((mapping, index) => {
    const rule = `tagMappings[${index}]`;
    const from = collapse(mapping.from);
    if (!from) throw invalid(`${rule}.from`, 'the source category cannot be empty');
    if (from.length > importRuleLimits.categoryLength) {
      throw invalid(`${rule}.from`, `at most ${importRuleLimits.categoryLength} characters`);
    }
    const key = from.toLocaleLowerCase();
    if (seen.has(key)) throw invalid(`${rule}.from`, `"${from}" is mapped twice`);
    seen.add(key);
    if (mapping.to === null) return { from, to: null };
    const to = collapse(mapping.to);
    if (!to) throw invalid(`${rule}.to`, 'the tag cannot be empty (use null to drop the category)');
    if (to.length > importRuleLimits.tagLength) {
      throw invalid(`${rule}.to`, `a tag has at most ${importRuleLimits.tagLength} characters`);
    }
    return { from, to };
  });
}

function integerIn(rule: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalid(rule, `a whole number from ${min} to ${max}`);
  }
  return value;
}

/**
 * Rules as stored, from an edit: each field checked (a DomainValidationError INVALID_IMPORT_RULE whose
 * message starts with the rule's name, e.g. `excludeKeywords[2]: ...`), text trimmed with inner
 * whitespace collapsed, duplicate keywords dropped (any case). Fields left out take their defaults.
 */
export function validateImportRules(input: ImportRulesInput): ImportRules {
  return {
    includeKeywords: keywordList('includeKeywords', input.includeKeywords ?? []),
    excludeKeywords: keywordList('excludeKeywords', input.excludeKeywords ?? []),
    tagMappings: tagMappingList(input.tagMappings ?? []),
    maxTags: integerIn('maxTags', input.maxTags ?? importRuleLimits.maxTags, 1, importRuleLimits.maxTags),
    defaultCategory: label('defaultCategory', input.defaultCategory, importRuleLimits.categoryLength),
    defaultSection: label('defaultSection', input.defaultSection, importRuleLimits.categoryLength),
    maxNewItemsPerFetch:
      input.maxNewItemsPerFetch === null || input.maxNewItemsPerFetch === undefined
        ? null
        : integerIn(
            'maxNewItemsPerFetch',
            input.maxNewItemsPerFetch,
            1,
            importRuleLimits.maxNewItemsPerFetch,
          ),
  };
}

/** Rules read back from the database column (validated when written): defaults filled in. */
export function toImportRules(stored: Partial<ImportRules> | null | undefined): ImportRules {
  return { ...defaultImportRules, ...(stored ?? {}) };
}
