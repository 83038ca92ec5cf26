import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedError } from '../src/feed-error';
import { type ParsedFeed, parseFeed } from '../src/parse-feed';
import { FIXTURES_DIR, readFixture } from './support/local-server';

const FEED_FIXTURES = readdirSync(FIXTURES_DIR).filter(
  (name) => /\.(rss|atom)$/.test(name) && name !== 'unrecognized.rss',
);
// Edge-case fixtures whose single entry has no title, link or content at all.
const EMPTY_ENTRY_FIXTURES = new Set(['missing-fields.atom', 'incomplete-fields.atom']);

function parseFixture(name: string, contentType?: string): Promise<ParsedFeed> {
  return parseFeed(readFixture(name), {
    url: `https://feeds.example.com/${name}`,
    contentType: contentType ?? null,
  });
}

const isHttpUrl = (value: string | null) => value === null || /^https?:\/\/[^/]/.test(value);

describe.each(FEED_FIXTURES)('fixture %s', (name) => {
  it('parses into well-formed items', async () => {
    const feed = await parseFixture(name);
    expect(feed.items.length).toBeGreaterThan(0);
    const guids = feed.items.map((item) => item.guid);
    expect(new Set(guids).size).toBe(guids.length);
    for (const item of feed.items) {
      expect(item.guid).not.toBe('');
      if (!EMPTY_ENTRY_FIXTURES.has(name)) expect(item.title).not.toBe('');
      expect(item.title.length).toBeLessThanOrEqual(500);
      expect(item.title).not.toMatch(/<[a-z/]|&(amp|lt|gt|quot);/i);
      expect(isHttpUrl(item.url)).toBe(true);
      expect(isHttpUrl(item.image)).toBe(true);
      expect(isHttpUrl(item.thumbnail)).toBe(true);
      expect(item.body).not.toMatch(/<(script|style|iframe|object|embed|form)\b|\son\w+=|javascript:/i);
      expect(item.publishedAt === null || !Number.isNaN(item.publishedAt.getTime())).toBe(true);
    }
    // The placeholder base feedparser resolves against must never leak into results.
    expect(JSON.stringify(feed)).not.toContain('unresolved.invalid');
  });
});

describe('concrete values from the fixtures', () => {
  it('guardian.rss: 55 items with media:content thumbnail (140 px) and image (460 px)', async () => {
    const feed = await parseFixture('guardian.rss');
    expect(feed).toMatchObject({ title: 'The Guardian', link: 'https://www.theguardian.com/us' });
    expect(feed.items).toHaveLength(55);
    const first = feed.items[0];
    expect(first).toMatchObject({
      guid: 'https://www.theguardian.com/us-news/2018/jan/31/donald-trump-state-of-the-union-address-unity-discord',
      title: 'Trump State of the Union address promised unity but emphasized discord',
      url: 'https://www.theguardian.com/us-news/2018/jan/31/donald-trump-state-of-the-union-address-unity-discord',
      publishedAt: new Date('2018-01-31T07:26:05Z'),
    });
    expect(first?.categories).toEqual([
      'Donald Trump',
      'State of the Union address',
      'US news',
      'US politics',
      'Democrats',
      'Republicans',
      'US Congress',
    ]);
    expect(first?.thumbnail).toMatch(/^https:\/\/i\.guim\.co\.uk\/img\/media\/b73c8752.*\?w=140&q=55/);
    expect(first?.image).toMatch(/^https:\/\/i\.guim\.co\.uk\/img\/media\/b73c8752.*\?w=460&q=55/);
    expect(
      first?.body.startsWith('<p>The president’s ‘new American moment’ speech stirred Republican applause'),
    ).toBe(true);
    expect(first?.body).toContain(
      '<a href="https://www.theguardian.com/us-news/2018/jan/30/state-of-the-union-fact-check-trumps-address-analyzed" rel="noopener noreferrer">',
    );
    expect(feed.items.filter((item) => item.thumbnail !== null).length).toBeGreaterThan(50);
  });

  it('uolNoticias.rss (ISO-8859-1, no prolog): accented words come out right, with or without a charset header', async () => {
    for (const contentType of ['application/rss+xml; charset=ISO-8859-1', undefined]) {
      const feed = await parseFixture('uolNoticias.rss', contentType);
      expect(feed.title).toBe('UOL Noticias');
      expect(feed.items).toHaveLength(15);
      expect(feed.items[0]?.title).toBe(
        'Ibope: Bolsonaro perde de Haddad, Ciro e Alckmin em simulações de 2º turno',
      );
      expect(feed.items[0]?.body).toContain('Líder na pesquisa Ibope de intenção de voto');
      expect(feed.items[0]?.thumbnail).toBe(
        'https://conteudo.imguol.com.br/c/noticias/5f/2018/09/17/presidenciaveis-1537211917356_142x100.jpg',
      );
    }
  });

  it('encoding.rss (ISO-8859-1 prolog, CRLF): accented titles and bodies', async () => {
    const feed = await parseFixture('encoding.rss');
    expect(feed.title).toBe('Jornal de Notícias - Últimas Notícias');
    expect(feed.items).toHaveLength(40);
    expect(feed.items[0]).toMatchObject({
      title: 'Mãe de utente é a nova presidente da Raríssimas',
      categories: ['Nacional'],
      publishedAt: new Date('2018-01-03T13:47:00Z'),
    });
    expect(feed.items[0]?.body).toContain('Sónia Laygue, profissional na área da Recursos Humanos');
  });

  it('heise.atom (Atom): German text, links and images from the content', async () => {
    const feed = await parseFixture('heise.atom');
    expect(feed.title).toBe('heise developer neueste Meldungen');
    expect(feed.items).toHaveLength(15);
    expect(feed.items[1]).toMatchObject({
      guid: 'http://heise.de/-3088627',
      title: 'Scrum Day 2016: Bewerbungen für Vorträge und Workshops',
      image: expect.stringMatching(/^http:\/\/www\.heise\.de\/scale\/.*header_scrumday_01/),
    });
  });

  it('rss-1.rss and craigslist.rss (RSS 1.0 / RDF)', async () => {
    const science = await parseFixture('rss-1.rss');
    expect(science.items).toHaveLength(69);
    expect(science.items[0]).toMatchObject({
      title: 'Food for fungi',
      categories: ['Botany', 'Microbiology'],
    });
    const craigslist = await parseFixture('craigslist.rss');
    expect(craigslist.items).toHaveLength(25);
    // RSS 1.0 enc:enclosure images.
    expect(craigslist.items[1]?.image).toBe('https://images.craigslist.org/00K0K_fdZ3XvQwsbo_300x300.jpg');
  });

  it('heraldsun.rss (RSS 0.92)', async () => {
    const feed = await parseFixture('heraldsun.rss');
    expect(feed.items.map((item) => item.title)).toEqual(['The First Item', 'The Second Item']);
    expect(feed.items[0]).toMatchObject({
      url: 'http://www.oreilly.com/example/001.html',
      body: 'This is the first item.',
    });
  });

  it('reddit.rss: media:thumbnail', async () => {
    const feed = await parseFixture('reddit.rss');
    expect(feed.items[0]?.thumbnail).toBe(
      'https://b.thumbs.redditmedia.com/z4zzFBqZ54WT-rFfKXVor4EraZtJVw7AodDvOZ7kitQ.jpg',
    );
  });

  it('giantbomb-podcast.rss: 730 items with itunes:image, audio enclosures ignored', async () => {
    const feed = await parseFixture('giantbomb-podcast.rss');
    expect(feed.items).toHaveLength(730);
    expect(feed.items[0]).toMatchObject({
      guid: '1600-2823',
      title: 'Giant Bombcast 603: Call of Tuesday',
      image:
        'https://giantbomb1.cbsistatic.com/uploads/original/0/30/3132120-mspac-marquee-full.jpg?20191008',
    });
    expect(feed.items.every((item) => item.image && !item.image.includes('.mp3'))).toBe(true);
  });

  it('content-encoded.rss: content:encoded wins over description and keeps figures', async () => {
    const feed = await parseFixture('content-encoded.rss');
    expect(feed.items[0]?.title).toBe('THE CREATIVE FORAGER');
    expect(feed.items[0]?.body).toMatch(
      /^<h4>Using Wild Ingredients in the\u00a0Kitchen<\/h4><figure><img alt="" src="https:\/\/cdn-images-1\.medium\.com/,
    );
    expect(feed.items[0]?.image).toBe(
      'https://cdn-images-1.medium.com/max/938/1*C_nVpehD-NKBgtVEULabmQ.jpeg',
    );
  });

  it('feedburner.atom and many-links.rss: share buttons and tracking pixels are not taken as images', async () => {
    for (const name of ['feedburner.atom', 'many-links.rss']) {
      const feed = await parseFixture(name);
      expect(feed.items).toHaveLength(25);
      for (const item of feed.items) {
        expect(item.body).not.toContain('feeds.feedburner.com/~ff/');
        expect(item.image ?? '').not.toContain('feedburner.com');
      }
    }
  });

  it('instant-article.rss, narro.rss: escaped HTML content and itunes:image', async () => {
    expect((await parseFixture('instant-article.rss')).items[0]?.body).toBe('<b>Lorem</b> ipsum');
    expect((await parseFixture('narro.rss')).items[0]?.image).toBe('http://example.com/someImage.jpg');
  });

  it('missing-fields.atom and incomplete-fields.atom: entries without fields still get a guid', async () => {
    expect((await parseFixture('missing-fields.atom')).items[0]).toMatchObject({
      guid: 'tag:github.com,2008:Repository/11167738/v3.9.0',
      title: '',
      url: null,
      publishedAt: null,
    });
    expect((await parseFixture('incomplete-fields.atom')).items[0]?.guid).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('documents that are not feeds', () => {
  it.each([
    ['unrecognized.rss', readFixture('unrecognized.rss')],
    ['an empty body', Buffer.alloc(0)],
    ['JSON', Buffer.from('{"version":"https://jsonfeed.org/version/1"}')],
    [
      'an HTML page',
      Buffer.from('<!doctype html><html><head><title>x</title></head><body><p>hi</p></body></html>'),
    ],
    ['binary garbage', Buffer.from([0x00, 0xff, 0x13, 0x37, 0x89, 0x50, 0x4e, 0x47])],
  ])('%s -> NOT_A_FEED (permanent)', async (_label, body) => {
    const error = await parseFeed(body, { url: 'https://feeds.example.com/x' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(FeedError);
    expect((error as FeedError).code).toBe('NOT_A_FEED');
    expect((error as FeedError).permanent).toBe(true);
  });
});
