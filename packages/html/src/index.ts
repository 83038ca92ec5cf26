export { isPlaceholderUrl, PLACEHOLDER_BASE, toAbsoluteHttpUrl } from './content-url';
export { excerptFromHtml, excerptFromText, maxExcerptLength } from './excerpt';
export { collapseWhitespace, htmlToText, titleToText, truncateText } from './html-text';
export { firstImageSource, type ImagePolicy, sanitizeBody } from './sanitize-body';
