// Bull Board's page is its own template (@bull-board/ui dist/index.ejs), rendered by its Fastify adapter;
// these are the changes made to it on the way out, so no template of a given version is copied here.

// The strip the link sits on is the board's own "environment badge" row (`boardEnvironment`): the board
// makes room for it at the top of its fixed header; the link covers that row, in the dashboard's colours.
const stripHeight = 'calc(0.875rem * 1.5)';

/** A link back to the dashboard, over the top row of the board's header. */
const backLink =
  '<nav aria-label="Newsroom" style="position:fixed;top:0;left:0;right:0;z-index:100;' +
  `height:${stripHeight};padding:0 16px;background:#14213d;font:0.875rem/1.5 system-ui,sans-serif">` +
  '<a href="/" style="color:#fff">← Back to the dashboard</a></nav>';

/** The board's environment badge: a row at the top of its header, where the link back goes. */
export const boardEnvironment = {
  label: 'Newsroom',
  color: '#14213d',
  textColor: '#ffffff',
  fontSize: '0.875rem',
};

/**
 * The board's page without its stylesheet from another host (the IBM Plex web font from Google Fonts:
 * our Content-Security-Policy refuses it anyway, and nothing is fetched from another host; the board's
 * fonts are the system's, see `boardFonts`) and with the link back to the dashboard.
 */
export function adaptBoardPage(html: string): string {
  return html
    .replace(/<link\b[^>]*\bhref="(?:https?:)?\/\/[^"]*"[^>]*>\s*/gi, '')
    .replace(/<body\b[^>]*>/i, (body) => `${body}${backLink}`);
}

const systemFonts = {
  'font-sans': 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  'font-mono': 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
};

/** The board's theme tokens for its fonts: the dashboard's system fonts instead of IBM Plex. */
export const boardFonts = { light: systemFonts, dark: systemFonts };
