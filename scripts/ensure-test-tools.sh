#!/usr/bin/env bash
# Debian packages the test suite runs, installed when missing (`pnpm test` runs this first, so the README's test
# command works on a fresh Debian machine too):
# - chromium (/usr/bin/chromium): the browser tests drive it with playwright-core; nothing downloads a browser
#   of its own;
# - libxml2-utils (xmllint): the syndication tests validate our sitemaps against the sitemap XML schemas;
# - varnish + varnish-modules (varnishd, the xkey vmod): the edge test puts Varnish in front of two API replicas;
# - pgbouncer: the database test files also run through PgBouncer in transaction mode;
# - postgresql (the server: initdb, pg_ctl, pg_basebackup under /usr/lib/postgresql/<version>/bin): the read
#   replica test starts a primary of its own and a streaming replica of it (apps/api/test/replica/).
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v xmllint >/dev/null || missing+=(libxml2-utils)
command -v varnishd >/dev/null || [ -x /usr/sbin/varnishd ] || missing+=(varnish)
ls /usr/lib/*/varnish/vmods/libvmod_xkey.so >/dev/null 2>&1 || missing+=(varnish-modules)
command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
ls /usr/lib/postgresql/*/bin/pg_basebackup >/dev/null 2>&1 || missing+=(postgresql)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing Debian packages for the tests (once): ${missing[*]}..." >&2
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
  echo "Need root to install them: run 'apt-get install -y ${missing[*]}' as root, then pnpm test again." >&2; exit 1; fi; }
as_root apt-get update -qq
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
[ -x /usr/bin/chromium ] && /usr/bin/chromium --version >&2
# sed reads all of it (head would close the pipe early: xmllint's SIGPIPE fails the script under pipefail).
xmllint --version 2>&1 | sed -n 1p >&2
