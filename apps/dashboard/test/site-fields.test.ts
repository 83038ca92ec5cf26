// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  browserAccessBody,
  siteBody,
  suggestSlug,
  syndicationBody,
} from '../src/features/sites/components/site-fields';

// The site forms' text as the API's bodies (what the form layer validates and sends).

describe('site form bodies', () => {
  it('suggests a slug from a name: ASCII words joined by dashes, at most 63 characters', () => {
    expect(suggestSlug('Metro Évening News!')).toBe('metro-evening-news');
    expect(suggestSlug('  --Harbour--  ')).toBe('harbour');
    expect(suggestSlug(`${'a'.repeat(62)} b`)).toBe('a'.repeat(62));
    expect(suggestSlug('日本')).toBe('');
  });

  it('trims the name and slug, lower-cases the domain, and sends an empty domain as none', () => {
    expect(siteBody(' Metro ', ' metro ', ' News.Example.COM ')).toEqual({
      name: 'Metro',
      slug: 'metro',
      domain: 'news.example.com',
    });
    expect(siteBody('Metro', 'metro', '  ')).toEqual({ name: 'Metro', slug: 'metro', domain: null });
  });

  it('sends an empty article URL template as none (no feeds or sitemaps)', () => {
    expect(syndicationBody(' en ', ' https://{domain}/news/{slug} ')).toEqual({
      language: 'en',
      articleUrlTemplate: 'https://{domain}/news/{slug}',
    });
    expect(syndicationBody('pt-BR', '')).toEqual({ language: 'pt-BR', articleUrlTemplate: null });
  });

  it('splits origins on commas, spaces and new lines, and sends an empty public base as none', () => {
    expect(browserAccessBody('https://a.example, https://b.example\nhttps://c.example  ', '')).toEqual({
      allowedOrigins: ['https://a.example', 'https://b.example', 'https://c.example'],
      publicBaseUrl: null,
    });
    expect(browserAccessBody('', ' https://news.example ')).toEqual({
      allowedOrigins: [],
      publicBaseUrl: 'https://news.example',
    });
  });
});
