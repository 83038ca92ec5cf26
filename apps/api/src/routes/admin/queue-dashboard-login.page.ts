const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The small login form of the queue dashboard: paste (or let the dashboard post) an administrator token. */
export function loginPage(error?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Queue dashboard: log in</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}
textarea{width:100%;height:8rem;font-family:monospace}.error{color:#b00020}</style></head>
<body><h1>Queue dashboard</h1>
<p>Administrators only. Paste your dashboard token (the JWT the dashboard logs you in with).</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/admin/queues/login">
<label for="token">Administrator token</label>
<textarea id="token" name="token" required autocomplete="off" spellcheck="false"></textarea>
<p><button type="submit">Open the queue dashboard</button></p>
</form></body></html>`;
}
