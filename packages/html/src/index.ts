export { isPlaceholderUrl, PLACEHOLDER_BASE, toAbsoluteHttpUrl, undoPlaceholderBase } from './content-url';
export { excerptFromHtml, excerptFromText, maxExcerptLength } from './excerpt';
export { collapseWhitespace, htmlToText, titleToText, truncateText } from './html-text';
export {
  firstImageSource,
  type ImagePolicy,
  isTrackingPixel,
  sanitizeBody,
  sanitizeOptions,
} from './sanitize-body';
export { type VisibleTextHandler, visibleTextParser } from './visible-text';
