import { createRequire } from 'node:module';
import { loadUnpatched } from '@newsroom/test-support/unpatched-module';
import sanitizeHtml from 'sanitize-html';
import { sanitizeOptions } from '../../src/sanitize-body';

// Shared by the sanitize-html patch's equivalence tests: this package's (markup on its own) and packages/feeds'
// (the same markup as feedparser hands it over, item by item).

// Handed on so packages/feeds' test compares this package's (patched) copy, not one it would have to install.
export { sanitizeHtml };

export type Sanitize = typeof sanitizeHtml;

/** sanitize-html as published: the installed source with patches/sanitize-html@2.18.1.patch reversed. */
export function loadUnpatchedSanitizeHtml(): Sanitize {
  const file = createRequire(import.meta.url).resolve('sanitize-html');
  return loadUnpatched(file, 'index.js', 'sanitize-html@2.18.1.patch') as Sanitize;
}

/** Ours (with and without a base), the defaults, every disallowedTagsMode, and filters and transforms. */
export const OPTION_SETS: Record<string, sanitizeHtml.IOptions> = {
  'sanitizeBody (item link base)': sanitizeOptions('https://news.example.com/world/story.html'),
  'sanitizeBody (no base)': sanitizeOptions(null),
  defaults: {},
  escape: { disallowedTagsMode: 'escape' },
  recursiveEscape: { disallowedTagsMode: 'recursiveEscape' },
  completelyDiscard: { disallowedTagsMode: 'completelyDiscard' },
  'everything allowed': { allowedTags: false, allowedAttributes: false, allowVulnerableTags: true },
  'frames seen by filters and transforms': {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img'],
    transformTags: {
      b: (_tagName, attribs) => ({ tagName: 'strong', attribs, text: 'replaced text' }),
      i: 'em',
    },
    exclusiveFilter: (frame) =>
      frame.tag === 'p' && frame.text.includes('the')
        ? 'excludeTag'
        : frame.tag === 'div' && frame.mediaChildren.length > 0,
  },
  'entities kept': { parser: { decodeEntities: false } },
};
