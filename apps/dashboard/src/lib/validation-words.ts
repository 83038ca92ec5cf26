// The API's validation messages are Ajv's ("must NOT have fewer than 1 characters"); these say them in words.

// What a field's pattern asks for, in words (the schema's regular expression is never shown).
const patternMeanings: Record<string, string> = {
  email: 'Enter an e-mail address such as name@example.com',
  feedUrl: 'Enter an address starting with http:// or https://',
  domain: 'Enter a host name such as news.example.com (no http:// and no path)',
  slug: 'Use lower-case letters, digits and single dashes, such as metro-news',
  articleUrlTemplate: 'Enter an http(s) address containing {slug}, such as https://{domain}/news/{slug}',
  allowedOrigins: 'Enter origins such as https://news.example.com (no path), separated by commas',
  publicBaseUrl: 'Enter an http(s) address such as https://news.example.com, without ? or #',
  language: 'Enter a language code such as en or pt-BR',
};

const plural = (count: string, one: string, many: string) => `${count} ${count === '1' ? one : many}`;

/** Ajv's messages (the API's validation `details`) in words, the first match wins. */
const wordings: [RegExp, (match: RegExpExecArray) => string][] = [
  [/^must have required property/, () => 'Required'],
  [/^must NOT have fewer than 1 characters/, () => 'Required'],
  [
    /^must NOT have fewer than (\d+) characters/,
    (m) => `Must be at least ${plural(m[1] ?? '', 'character', 'characters')}`,
  ],
  [
    /^must NOT have more than (\d+) characters/,
    (m) => `Must be at most ${plural(m[1] ?? '', 'character', 'characters')}`,
  ],
  [/^must NOT have fewer than 1 items/, () => 'Choose at least one'],
  [/^must NOT have fewer than (\d+) items/, (m) => `Choose at least ${m[1]}`],
  [/^must NOT have more than (\d+) items/, (m) => `At most ${m[1]}`],
  [/^must be >= (\S+)/, (m) => `Must be at least ${m[1]}`],
  [/^must be > (\S+)/, (m) => `Must be more than ${m[1]}`],
  [/^must be <= (\S+)/, (m) => `Must be at most ${m[1]}`],
  [/^must be < (\S+)/, (m) => `Must be less than ${m[1]}`],
  [/^must be integer/, () => 'Must be a whole number'],
  [/^must be a finite number/, () => 'Must be a number'],
  [/^must match format "uri"/, () => 'Enter a full address starting with http:// or https://'],
  [/^must match format "email"/, () => patternMeanings.email ?? 'Enter an e-mail address'],
  [/^must match format "uuid"/, () => 'Is not a valid identifier'],
  [/^must match format "date-time"/, () => 'Enter a date and time'],
  [/^must match format/, () => 'Has an invalid format'],
  [
    /^must be equal to one of the allowed values|^must be equal to constant/,
    () => 'Choose one of the offered values',
  ],
  [/^must not contain a NUL character/, () => 'Contains a character that cannot be stored'],
  [/^must NOT have duplicate items/, () => 'Has the same value twice'],
  [/^must be (string|number|boolean|array|object|null)/, () => 'Has the wrong type of value'],
];

/** Ajv's wording made readable: no regular expressions or validator terms shown to people. */
export function humanizeIssue(message: string, field?: string): string {
  // A pattern of one non-space character is the API's "not blank".
  if (message === 'must match pattern "\\S"') return 'Required';
  if (message.startsWith('must match pattern'))
    return (field && patternMeanings[field]) ?? 'Has an invalid format';
  for (const [pattern, words] of wordings) {
    const match = pattern.exec(message);
    if (match) return words(match);
  }
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** A field's name in words: `feedUrl` -> "Feed URL", `body/defaultTags/2` -> "Default tags". */
export function fieldLabel(path: string, message = ''): string {
  const words = fieldName(path, message)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\burl\b/g, 'URL')
    .replace(/\bid\b/g, 'ID');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The field a validation issue is about: its path's last name, or the missing property. */
export function fieldName(path: string, message = ''): string {
  const required = /required property '([^']+)'/.exec(message)?.[1];
  return (
    required ??
    path
      .split('/')
      .filter((segment) => !/^\d+$/.test(segment))
      .pop() ??
    path
  );
}

/** A validation error's issues as one message in words: "Title: required. Feed URL: enter a full address…". */
export function describeIssues(issues: readonly { path: string; message: string }[]): string {
  return issues
    .map((issue) => {
      const words = humanizeIssue(issue.message, fieldName(issue.path, issue.message));
      return `${fieldLabel(issue.path, issue.message)}: ${words.charAt(0).toLowerCase()}${words.slice(1)}.`;
    })
    .join(' ');
}
