import type FeedParserType from 'feedparser';
import { installFastHtmlUriResolver } from './feedparser-html-uris';

// feedparser's main module copies its utils' exports when it is loaded, so the faster resolveHtmlUris
// (same output, see feedparser-html-uris.ts) must be installed first. A static import of 'feedparser'
// would be evaluated before any of our code runs (ES modules evaluate their imports first, and the
// production bundle hoists every node_modules import to its top), hence the dynamic import after the
// install. Everything in this package that constructs a FeedParser takes it from here.
installFastHtmlUriResolver();

/** feedparser's constructor, loaded after installing the faster HTML URL resolver. */
export const FeedParser: typeof FeedParserType = (await import('feedparser')).default;
