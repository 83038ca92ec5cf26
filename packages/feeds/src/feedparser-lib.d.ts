// feedparser's internal modules (its index.d.ts types only the parser); see feedparser-html-uris.ts.
declare module 'feedparser/lib/utils.js' {
  const utils: unknown;
  export default utils;
}
declare module 'feedparser/lib/constants.js' {
  const constants: unknown;
  export default constants;
}
