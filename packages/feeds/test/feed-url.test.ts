import { describe, expect, it } from 'vitest';
import { parseFeedUrl } from '../src/feed-url';
import { parseFeed } from '../src/parse-feed';

describe('the placeholder base given to feedparser', () => {
  it('resolves item content against the item link and item links against the feed URL', async () => {
    const xml = `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>/</link>
      <item><title>a</title><link>/2026/03/story.html</link>
      <description><![CDATA[<a href="next.html">n</a><img src="/img/p.jpg">]]></description></item>
      </channel></rss>`;
    const feed = await parseFeed(Buffer.from(xml), { url: 'https://feeds.example.com/rss' });
    expect(feed.link).toBe('https://feeds.example.com/');
    expect(feed.items[0]?.url).toBe('https://feeds.example.com/2026/03/story.html');
    expect(feed.items[0]?.guid).toBe('https://feeds.example.com/2026/03/story.html');
    expect(feed.items[0]?.body).toBe(
      '<a href="https://feeds.example.com/2026/03/next.html" rel="noopener noreferrer">n</a><img src="https://feeds.example.com/img/p.jpg" />',
    );
  });

  it('uses the item link host for content when the feed lives on another host', async () => {
    const xml = `<rss version="2.0"><channel><title>T</title>
      <item><title>a</title><link>https://www.example.com/news/story.html</link>
      <description><![CDATA[<img src="/img/p.jpg"><a href="more.html">m</a>]]></description></item></channel></rss>`;
    const feed = await parseFeed(Buffer.from(xml), { url: 'https://feeds.example.net/rss' });
    expect(feed.items[0]?.body).toBe(
      '<img src="https://www.example.com/img/p.jpg" /><a href="https://www.example.com/news/more.html" rel="noopener noreferrer">m</a>',
    );
    expect(feed.items[0]?.image).toBe('https://www.example.com/img/p.jpg');
  });

  it('still honours an absolute xml:base in Atom', async () => {
    const xml = `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example.org/posts/"><title>B</title>
      <entry><id>tag:x,1</id><title>e</title><link href="e1.html"/><content type="html">&lt;img src="pic.png"&gt;</content></entry></feed>`;
    const feed = await parseFeed(Buffer.from(xml), { url: 'https://feeds.example.net/atom' });
    expect(feed.items[0]?.url).toBe('https://blog.example.org/posts/e1.html');
    expect(feed.items[0]?.body).toBe('<img src="https://blog.example.org/posts/pic.png" />');
  });
});

describe('parseFeedUrl', () => {
  it('accepts http and https and drops the fragment', () => {
    expect(parseFeedUrl('https://example.com/feed.xml#x').href).toBe('https://example.com/feed.xml');
    expect(parseFeedUrl('HTTP://Example.com/feed').href).toBe('http://example.com/feed');
  });
});
