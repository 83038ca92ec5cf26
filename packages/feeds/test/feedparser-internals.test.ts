import FeedParser from 'feedparser';
import { describe, expect, it } from 'vitest';
import { forgetEmittedItemNodes, saxStreamOf } from '../src/feedparser-internals';

const item = (guid: string) => `<item><guid>${guid}</guid><title>Title ${guid}</title></item>`;
const open =
  '<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>https://n.example/</link>';

/** feedparser's open elements (private `stack`), innermost first, as forgetEmittedItemNodes sees them. */
const openElements = (parser: FeedParser) =>
  (parser as unknown as { stack: Record<string, unknown>[] }).stack;
const channelOf = (parser: FeedParser) => openElements(parser).find((node) => node['#name'] === 'channel');

function readAll(parser: FeedParser): unknown[] {
  const items: unknown[] = [];
  for (let next = parser.read(); next !== null; next = parser.read()) items.push(next);
  return items;
}

describe('forgetEmittedItemNodes', () => {
  it('drops the raw nodes feedparser keeps in the open channel for items it has emitted', () => {
    const parser = new FeedParser({ addmeta: false });
    saxStreamOf(parser).write(`${open}${item('a')}${item('b')}${item('c')}`);
    // What the function relies on (fails if a feedparser update renames or changes it): the open
    // channel sits on feedparser's stack and holds every emitted item's raw node.
    expect(channelOf(parser)?.item).toHaveLength(3);

    forgetEmittedItemNodes(parser);
    expect(channelOf(parser)?.item).toBeUndefined();
    expect(channelOf(parser)?.title).toBeDefined();
    expect(readAll(parser)).toHaveLength(3);
  });

  it('leaves an item that is still being read alone', () => {
    const parser = new FeedParser({ addmeta: false });
    saxStreamOf(parser).write(`${open}${item('a')}<item><guid>b</guid><title>Half`);
    forgetEmittedItemNodes(parser);
    const openItem = openElements(parser).find((node) => node['#name'] === 'item');
    expect(openItem?.guid).toMatchObject({ '#': 'b' });
    expect(channelOf(parser)?.item).toBeUndefined();
  });

  it('keeps the feed title and link that follow the items', async () => {
    const parser = new FeedParser({ addmeta: false });
    const sax = saxStreamOf(parser);
    sax.write(`<?xml version="1.0"?><rss version="2.0"><channel>${item('a')}${item('b')}`);
    forgetEmittedItemNodes(parser);
    sax.write('<title>Late</title><link>https://late.example/</link></channel></rss>');
    sax.end();
    expect(readAll(parser)).toHaveLength(2);
    expect(parser.meta).toMatchObject({ title: 'Late', link: 'https://late.example/' });
  });
});
