#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (/usr/bin/chromium) with playwright-core; nothing downloads a browser
# of its own. `pnpm test` runs this first, so the README's test command works on a fresh Debian machine too.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
echo "Chromium is missing: installing Debian's chromium package for the browser tests (once)..." >&2
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
  echo "Need root to install chromium: run 'apt-get install -y chromium' as root, then pnpm test again." >&2; exit 1; fi; }
as_root apt-get update -qq
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version >&2
