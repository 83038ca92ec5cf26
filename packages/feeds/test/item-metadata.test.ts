import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFeed } from '../src/parse-feed';
import { readFixture } from './support/local-server';

// Issue 32: bylines, standfirst and image metadata read from real publishers' feeds (the shared fixtures:
// the Guardian, a Feedburner/Blogger Atom, heise) and from fixtures written after the public formats
// (fixtures/article-fields: NYT/BBC-style RSS with media and dc, a Ghost-style Atom, JSON Feed 1.1).
const own = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures/article-fields', name));
const parse = (body: Buffer, name: string) =>
  parseFeed(body, { url: `https://feeds.example.com/${name}`, contentType: null });

describe('feed item metadata', () => {
  it('RSS: several dc:creator (one naming two people), the description as standfirst, media:content credit and description, a figure', async () => {
    const [story, wire] = (await parse(own('nyt-style.rss'), 'nyt.rss')).items;
    expect(story?.authors).toEqual([
      { name: 'Ann Lee', url: null },
      { name: 'Bo Chen', url: null },
      { name: 'Carla Diaz', url: null },
    ]);
    expect(story?.standfirst).toBe(
      'The city’s busiest crossing is back in service, weeks ahead of schedule, after engineers found the cracks were shallower than feared.',
    );
    expect(story?.image).toBe('https://static01.nyt.example/images/2026/11/27/bridge-superJumbo.jpg');
    expect(story?.imageMeta).toEqual({
      alt: 'The Harbour Bridge at dusk on Sunday, the day before it reopened.',
      caption: 'The Harbour Bridge at dusk on Sunday, the day before it reopened.',
      credit: 'Ann Lee for The New York Times',
      width: 1920,
      height: 1080,
    });
    expect(story?.thumbnail).toBe('https://static01.nyt.example/images/2026/11/27/bridge-thumbStandard.jpg');
    expect(story?.thumbnailMeta).toMatchObject({ width: 75, height: 75 });
    // The body keeps the figure, its caption and the image's alt and size; the handler is gone.
    expect(story?.body).toContain(
      '<figure><img src="https://static01.nyt.example/images/2026/11/27/bridge-inline.jpg" alt="Commuters cross the bridge at dawn" width="1024" height="683" /><figcaption>Commuters at dawn on Monday. <span>Ann Lee for The Times</span></figcaption></figure>',
    );
    expect(story?.body).not.toContain('onload');

    // RSS author "e-mail (Name)": the name only; the description is the body, so no standfirst.
    expect(wire?.authors).toEqual([{ name: 'Reuters', url: null }]);
    expect(wire?.standfirst).toBeNull();
    expect(wire?.imageMeta).toEqual({ alt: null, caption: null, credit: 'Reuters', width: 800, height: 600 });
  });

  it('Atom: authors with uri (markup in a name stripped), summary as standfirst, the body image alt and size', async () => {
    const [entry] = (await parse(own('publisher.atom'), 'blog.atom')).items;
    expect(entry?.authors).toEqual([
      { name: 'Dana Okafor', url: 'https://blog.example.com/author/dana/' },
      { name: 'Eli Novak', url: null },
    ]);
    expect(entry?.standfirst).toBe('From Friday, six night routes run again every 30 minutes.');
    expect(entry?.image).toBe('https://blog.example.com/content/images/bus.jpg');
    expect(entry?.imageMeta).toEqual({
      alt: 'A night bus at the depot',
      caption: null,
      credit: null,
      width: 1200,
      height: 800,
    });
  });

  it('JSON Feed 1.1: authors (blank names and unsafe URLs dropped), summary and image', async () => {
    const [item] = (await parse(own('json-feed-authors.json'), 'feed.json')).items;
    expect(item?.authors).toEqual([
      { name: 'Farah Haddad', url: 'https://courier.example.com/staff/farah' },
      { name: 'Gus Lind', url: null },
    ]);
    expect(item?.standfirst).toBe('Winter sailings start a week early this year.');
    expect(item?.image).toBe('https://courier.example.com/images/ferry.jpg');
    expect(item?.imageMeta).toBeNull();
  });

  it('real feeds: the Guardian (dc:creator, media:credit, two sizes), Blogger Atom (author uri), heise (body alt)', async () => {
    const guardian = (await parse(Buffer.from(readFixture('guardian.rss')), 'guardian.rss')).items[0];
    expect(guardian?.authors).toEqual([{ name: 'David Smith in Washington', url: null }]);
    expect(guardian?.imageMeta).toMatchObject({
      credit: 'Photograph: Networ/Sipa USA/REX/Shutterstock',
      width: 460,
    });
    expect(guardian?.thumbnailMeta).toMatchObject({ width: 140 });
    // Its description is its body: no standfirst.
    expect(guardian?.standfirst).toBeNull();

    const blogger = (await parse(Buffer.from(readFixture('feedburner.atom')), 'feedburner.atom')).items[0];
    expect(blogger?.authors).toEqual([
      { name: 'Google Ads Developer Advisor', url: 'http://www.blogger.com/profile/16700526826531306391' },
    ]);
    const heise = (await parse(Buffer.from(readFixture('heise.atom')), 'heise.atom')).items[0];
    expect(heise?.imageMeta?.alt).toBe('WildFly 10');

    const medium = (await parse(Buffer.from(readFixture('content-encoded.rss')), 'medium.rss')).items[1];
    expect(medium?.imageMeta?.caption).toBe('GROW, you bastards, GROW!');
  });
});
