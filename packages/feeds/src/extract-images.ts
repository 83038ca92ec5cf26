import { isPublicImageUrl } from '@newsroom/egress';
import { firstImageSource, type ImagePolicy, toAbsoluteHttpUrl } from '@newsroom/html';
import type FeedParser from 'feedparser';
import { bodyImageMeta, type FeedImageMeta, isEmptyMeta, mediaNodeMeta } from './item-metadata';

/** The item's pictures: `image` is the largest known, `thumbnail` the smallest; either falls back to the other. */
export interface ItemImages {
  image: string | null;
  thumbnail: string | null;
  /** What the feed says about each picture (media:credit, media:description, size; the body's alt and figcaption). */
  imageMeta: FeedImageMeta | null;
  thumbnailMeta: FeedImageMeta | null;
}

interface SizedUrl {
  url: string;
  width: number | undefined;
  node: RawNode;
}

// feedparser keeps namespaced elements as raw nodes: { '@': attributes, ...children }, or arrays of them.
type RawNode = { '@'?: Record<string, unknown> } & Record<string, unknown>;

const IMAGE_EXTENSION = /\.(jpe?g|png|gif|webp|avif)$/i;

/**
 * Picks the item's image and thumbnail (absolute http(s) URLs only).
 *
 * image: largest image media:content (by width), else an image/* enclosure (RSS 2.0 enclosure or RSS 1.0
 * enc:enclosure), else itunes:image, else
 * the first image in the sanitised body, else the first media:thumbnail.
 * thumbnail: the first media:thumbnail, else the smallest image media:content, else `image`.
 * So a feed with both sizes (the Guardian: 140 px and 460 px) gets two different URLs, and a feed with
 * one picture gets the same URL in both fields.
 */
export function extractImages(
  item: FeedParser.Item,
  sanitizedBody: string,
  baseUrl: string | null,
  images: ImagePolicy = {},
): ItemImages {
  // An image on a private or internal host is skipped as if absent, so the next candidate is used.
  const imageUrl = (value: string | null | undefined, base: string | null): string | null => {
    const url = toAbsoluteHttpUrl(value, base);
    return url && (images.allowPrivateImages || isPublicImageUrl(url)) ? url : null;
  };
  const group = asNodes(item['media:group'])[0];
  const mediaContents = [...asNodes(item['media:content']), ...asNodes(group?.['media:content'])];
  const mediaImages = mediaContents
    .filter(isImageMediaContent)
    .map((node) => sized(node, baseUrl, imageUrl))
    .filter((entry) => entry !== undefined);
  const mediaThumbnails = [
    ...asNodes(item['media:thumbnail']),
    ...mediaContents.flatMap((node) => asNodes(node['media:thumbnail'])),
    ...asNodes(group?.['media:thumbnail']),
  ]
    .map((node) => sized(node, baseUrl, imageUrl))
    .filter((entry) => entry !== undefined);

  const largestImage = largest(mediaImages);
  const bodyImage = firstImageSource(sanitizedBody);
  const image =
    largestImage?.url ??
    imageEnclosure(item, baseUrl, imageUrl) ??
    imageUrl(attribute(asNodes(item['itunes:image'])[0], 'href'), baseUrl) ??
    bodyImage ??
    mediaThumbnails[0]?.url ??
    null;
  const thumbnailEntry = mediaThumbnails[0] ?? smallest(mediaImages);
  const thumbnail = thumbnailEntry?.url ?? image;
  const metaOf = (url: string | null, entry: SizedUrl | undefined): FeedImageMeta | null => {
    if (url === null) return null;
    const meta =
      entry?.url === url
        ? mediaNodeMeta(entry.node, item)
        : url === bodyImage
          ? bodyImageMeta(sanitizedBody, url)
          : null;
    return isEmptyMeta(meta) ? null : meta;
  };
  return {
    image,
    thumbnail,
    imageMeta: metaOf(image, largestImage ?? mediaThumbnails.find((entry) => entry.url === image)),
    thumbnailMeta: metaOf(thumbnail, thumbnailEntry ?? largestImage),
  };
}

function asNodes(value: unknown): RawNode[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((entry): entry is RawNode => typeof entry === 'object' && entry !== null);
}

function attribute(node: RawNode | undefined, name: string): string | undefined {
  const value = node?.['@']?.[name];
  return typeof value === 'string' ? value : undefined;
}

type ImageUrl = (value: string | null | undefined, base: string | null) => string | null;

function sized(node: RawNode, baseUrl: string | null, imageUrl: ImageUrl): SizedUrl | undefined {
  const url = imageUrl(attribute(node, 'url'), baseUrl);
  if (!url) return undefined;
  const width = Number.parseInt(attribute(node, 'width') ?? '', 10);
  return { url, width: Number.isNaN(width) ? undefined : width, node };
}

function isImageMediaContent(node: RawNode): boolean {
  const medium = attribute(node, 'medium')?.toLowerCase();
  const type = attribute(node, 'type');
  if (medium) return medium === 'image';
  if (type) return isImageType(type);
  // Untyped media:content (the Guardian, NYT) is judged by the file extension of its URL path.
  const url = attribute(node, 'url');
  if (!url) return false;
  try {
    return IMAGE_EXTENSION.test(new URL(url, 'http://x.invalid').pathname);
  } catch {
    return false;
  }
}

// Unknown widths rank below known ones; ties keep the feed's order.
function largest(entries: SizedUrl[]): SizedUrl | undefined {
  return entries.reduce<SizedUrl | undefined>(
    (best, entry) => (!best || (entry.width ?? -1) > (best.width ?? -1) ? entry : best),
    undefined,
  );
}

function smallest(entries: SizedUrl[]): SizedUrl | undefined {
  return entries.reduce<SizedUrl | undefined>(
    (best, entry) =>
      !best || (entry.width ?? Number.POSITIVE_INFINITY) < (best.width ?? Number.POSITIVE_INFINITY)
        ? entry
        : best,
    undefined,
  );
}

// RSS 2.0 <enclosure> (normalised by feedparser) and the RSS 1.0 enc:enclosure module (Craigslist).
function imageEnclosure(item: FeedParser.Item, baseUrl: string | null, imageUrl: ImageUrl): string | null {
  const enclosures = Array.isArray(item.enclosures) ? item.enclosures : [];
  const rssEnclosure = enclosures.find((entry) => isImageType(entry.type));
  if (rssEnclosure) return imageUrl(rssEnclosure.url, baseUrl);
  const rdfEnclosure = asNodes(item['enc:enclosure']).find((node) => isImageType(attribute(node, 'type')));
  return imageUrl(attribute(rdfEnclosure, 'resource'), baseUrl);
}

function isImageType(type: string | undefined): boolean {
  return type?.toLowerCase().startsWith('image/') ?? false;
}
