import { executableParts, HOSTILE_HTML, STORED_BODY_ATTACKS } from '@newsroom/test-support/hostile-html';
import { describe, expect, it } from 'vitest';
import { sanitizeBody } from '../src/sanitize-body';

// The hostile HTML corpus straight against the sanitiser, with no feed or API around it: nothing a browser
// would run, load from a private address or follow to a non-web scheme may survive, whatever the base URL.
// The API's tests check the same through a stored article body, packages/feeds' through a parsed feed.

const BASES = [null, 'https://news.example.com/world/story.html'];

describe('sanitizeBody against the hostile corpus', () => {
  it(`has the whole corpus to run (${HOSTILE_HTML.length} vectors)`, () => {
    expect(HOSTILE_HTML.length).toBeGreaterThan(70);
    expect(STORED_BODY_ATTACKS.length).toBeGreaterThan(0);
  });

  it.each(BASES)('leaves nothing executable in any vector, one by one (base %s)', (base) => {
    for (const html of HOSTILE_HTML) expect(executableParts(sanitizeBody(html, base)), html).toEqual([]);
  });

  it.each(BASES)('leaves nothing executable in the whole corpus at once (base %s)', (base) => {
    expect(executableParts(sanitizeBody(HOSTILE_HTML.join('\n'), base))).toEqual([]);
  });

  it('is stable: sanitising its own output again changes nothing executable', () => {
    for (const html of HOSTILE_HTML) {
      const once = sanitizeBody(html, null);
      expect(executableParts(sanitizeBody(once, null)), html).toEqual([]);
    }
  });
});
