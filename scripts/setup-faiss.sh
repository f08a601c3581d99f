#!/usr/bin/env bash
# Builds faiss-node (the Node binding of FAISS) offline against Debian's libfaiss-dev, for machines
# where `npm install faiss-node` cannot fetch a prebuilt binary. Idempotent: does nothing when
# `require('faiss-node')` already works. Only the npm registry is used (npm pack); nothing else is
# downloaded. Usage: bash scripts/setup-faiss.sh   (from anywhere; acts on this repo's node_modules)
#
# Steps: npm pack faiss-node@0.5.1 + node-addon-api@6 (+ node-api-headers when node's own headers are
# missing) → g++ -fopenmp src/faiss.cc -lfaiss with a forced-include header for the faiss 1.7.3 API →
# node_modules/faiss-node/{package.json,lib,build/Release/faiss-node.node}. The compiled binary is
# cached in node_modules/.cache/mhub-faiss/ so re-running after `npm install` (which prunes the
# folder) takes a second. Exit 0 when done or when libfaiss-dev is absent (faiss-node is optional;
# set MHUB_REQUIRE_FAISS=1 to make that an error), 1 when a build was attempted and failed.
set -euo pipefail

FAISS_NODE_VERSION=0.5.1
ADDON_API_VERSION=6
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NM="$REPO/node_modules"
DEST="$NM/faiss-node"
CACHE="$NM/.cache/mhub-faiss"
say() { echo "setup-faiss: $*"; }

check_loads() {
  (cd "$REPO" && node -e "
    const f = require('faiss-node');
    const ix = new f.IndexFlatIP(2); ix.add([1, 0, 0, 1]);
    const r = ix.search([1, 0], 1);
    if (ix.ntotal() !== 2 || r.labels[0] !== 0) process.exit(1);
  ") >/dev/null 2>&1
}

if [ ! -d "$NM" ]; then
  say "no node_modules in $REPO; run \`npm ci\` first"; exit 1
fi
if check_loads; then
  say "faiss-node already loads ($(cd "$REPO" && node -p "require('faiss-node/package.json').version")); nothing to do"; exit 0
fi

LIBFAISS="$(compgen -G '/usr/lib/*/libfaiss.*' || compgen -G '/usr/lib/libfaiss.*' || compgen -G '/usr/local/lib/libfaiss.*' || true)"
LIBFAISS="${LIBFAISS%%$'\n'*}"
if [ ! -f /usr/include/faiss/IndexFlat.h ] || [ -z "$LIBFAISS" ]; then
  say "libfaiss-dev is not installed. Install it with:  sudo apt-get install -y libfaiss-dev"
  say "(MetadataHub still works without faiss-node: FAISS files are written and searched by its built-in flat codec)"
  [ "${MHUB_REQUIRE_FAISS:-0}" = "1" ] && exit 1
  exit 0
fi
command -v g++ >/dev/null || { say "g++ is missing: sudo apt-get install -y g++"; exit 1; }

mkdir -p "$CACHE"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/mhub-faiss-XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

say "fetching faiss-node@$FAISS_NODE_VERSION and node-addon-api@$ADDON_API_VERSION from the npm registry"
npm pack --silent "faiss-node@$FAISS_NODE_VERSION" >/dev/null
npm pack --silent "node-addon-api@$ADDON_API_VERSION" >/dev/null
mkdir -p fn naa
tar xzf faiss-node-*.tgz -C fn
tar xzf node-addon-api-*.tgz -C naa

NODE_INC="$(node -p "require('path').join(process.execPath, '..', '..', 'include', 'node')")"
if [ ! -f "$NODE_INC/node_api.h" ]; then
  for d in /usr/include/node /usr/local/include/node; do [ -f "$d/node_api.h" ] && NODE_INC="$d" && break; done
fi
if [ ! -f "$NODE_INC/node_api.h" ]; then
  say "node's headers not found; using node-api-headers from the npm registry"
  npm pack --silent node-api-headers >/dev/null
  mkdir -p nah && tar xzf node-api-headers-*.tgz -C nah
  NODE_INC="$WORK/nah/package/include"
fi

BIN_KEY="$(cat fn/package/src/faiss.cc /usr/include/faiss/Index.h | sha256sum | cut -c1-16)-$(node -p process.versions.modules)"
BIN="$CACHE/faiss-node-$BIN_KEY.node"
if [ ! -f "$BIN" ]; then
  # faiss 1.7.3 (Debian) declares idx_t inside faiss::Index; faiss-node 0.5.1 expects faiss::idx_t
  cat > compat.h <<'H'
#include <faiss/Index.h>
namespace faiss { using idx_t = faiss::Index::idx_t; }
H
  say "compiling faiss-node against $LIBFAISS (node headers: $NODE_INC)"
  g++ -std=c++17 -O2 -shared -fPIC -fopenmp -DNAPI_VERSION=6 -DNAPI_CPP_EXCEPTIONS \
    -include compat.h -I naa/package -I "$NODE_INC" \
    fn/package/src/faiss.cc -o faiss-node.node -lfaiss -lblas -llapack
  cp faiss-node.node "$BIN.tmp" && mv "$BIN.tmp" "$BIN"
else
  say "using cached build $BIN"
fi

rm -rf "$DEST.tmp"
mkdir -p "$DEST.tmp/build/Release" "$DEST.tmp/lib"
cp fn/package/package.json fn/package/LICENSE fn/package/README.md "$DEST.tmp/"
cp fn/package/lib/index.d.ts "$DEST.tmp/lib/"
# load the binary by path (the published file needs the `bindings` package)
sed "s#require('bindings')('faiss-node')#require('../build/Release/faiss-node.node')#" fn/package/lib/index.js > "$DEST.tmp/lib/index.js"
cp "$BIN" "$DEST.tmp/build/Release/faiss-node.node"
# drop the install script so a later `npm rebuild` does not try to download faiss
node -e "
  const fs = require('fs'); const p = process.argv[1];
  const j = JSON.parse(fs.readFileSync(p, 'utf8'));
  delete j.scripts; delete j.gypfile; j.mhubBuiltFrom = 'scripts/setup-faiss.sh against libfaiss-dev';
  fs.writeFileSync(p, JSON.stringify(j, null, 2) + '\n');
" "$DEST.tmp/package.json"
rm -rf "$DEST" && mv "$DEST.tmp" "$DEST"

if check_loads; then
  say "faiss-node $FAISS_NODE_VERSION built and installed in node_modules/faiss-node"
else
  say "faiss-node was built but does not load:"; (cd "$REPO" && node -e "require('faiss-node')") || true
  exit 1
fi
