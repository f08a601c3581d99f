#!/usr/bin/env bash
# Gathers a dev set's documents from Debian packages into ${MHUB_DEVDATA:-../devdata}/<set>/docs/:
#   crossdomain (default): PDF manuals, guides and R vignettes, listed in eval/crossdomain-docs.tsv;
#   formats: HTML manuals, Markdown and plain-text READMEs, man pages, listed in eval/formats-docs.tsv
#   (scripts/gather-formats-devdata.sh);
#   fields: PDF guides and package manuals of accounting, the humanities and the sciences, listed in
#   eval/fields-docs.tsv (a check set, never tuned on).
# A manifest gives each document's file name, package, path inside the package, and field or format.
# Needs apt-get and dpkg-deb (Debian/Ubuntu); installs nothing: packages are downloaded and
# unpacked into a temporary folder. Idempotent: documents already present are kept as they are.
# Usage: scripts/gather-devdata.sh [--set crossdomain|formats|fields] [--no-update]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SET=crossdomain
UPDATE=1
while [ $# -gt 0 ]; do
  case "$1" in
    --no-update) UPDATE=0 ;;
    --set) SET="${2:-}"; shift ;;
    *) echo "gather-devdata: unknown argument '$1' (usage: scripts/gather-devdata.sh [--set crossdomain|formats|fields] [--no-update])" >&2; exit 2 ;;
  esac
  shift
done
MANIFEST="$ROOT/eval/$SET-docs.tsv"
DEVDATA="$(realpath -m "${MHUB_DEVDATA:-$ROOT/../devdata}")"
DEST="$DEVDATA/$SET/docs"

for tool in apt-get dpkg-deb gzip; do
  command -v "$tool" >/dev/null || { echo "gather-devdata: '$tool' not found; this script needs a Debian-based system." >&2; exit 1; }
done
[ -f "$MANIFEST" ] || { echo "gather-devdata: manifest $MANIFEST not found." >&2; exit 1; }
mkdir -p "$DEST"

# Which documents are missing, and which packages hold them.
missing=()
declare -A need_pkg=()
while IFS=$'\t' read -r file pkg path field; do
  [[ -z "$file" || "$file" == \#* ]] && continue
  if [ ! -s "$DEST/$file" ]; then
    missing+=("$file"$'\t'"$pkg"$'\t'"$path")
    need_pkg["$pkg"]=1
  fi
done < "$MANIFEST"

total=$(grep -vc '^#' "$MANIFEST")
if [ ${#missing[@]} -eq 0 ]; then
  echo "gather-devdata: all $total documents already in $DEST"
  exit 0
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mhub-devdata.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
if [ "$UPDATE" = 1 ]; then
  echo "gather-devdata: apt-get update"
  apt-get update -qq || { echo "gather-devdata: apt-get update failed (are you root? is the Debian mirror reachable?)" >&2; exit 1; }
fi

pkgs=("${!need_pkg[@]}")
IFS=$'\n' pkgs=($(sort <<<"${pkgs[*]}")); unset IFS
for pkg in "${pkgs[@]}"; do
  if ! apt-cache show --no-all-versions "$pkg" >/dev/null 2>&1; then
    echo "gather-devdata: package '$pkg' is not known to apt (run without --no-update, or check the Debian release)." >&2
    exit 1
  fi
  echo "gather-devdata: downloading $pkg"
  (cd "$WORK" && apt-get download -qq "$pkg") || { echo "gather-devdata: could not download '$pkg'." >&2; exit 1; }
done
mkdir -p "$WORK/x"
for deb in "$WORK"/*.deb; do dpkg-deb -x "$deb" "$WORK/x"; done

failed=0
for row in "${missing[@]}"; do
  IFS=$'\t' read -r file pkg path <<<"$row"
  src="$WORK/x/$path"
  if [ ! -f "$src" ]; then
    echo "gather-devdata: '$path' not found in package '$pkg' (the package version may differ); skipping $file" >&2
    failed=1; continue
  fi
  tmp="$DEST/.$file.tmp"
  case "$path" in
    *.gz) gzip -dc "$src" > "$tmp" ;;
    *) cp "$src" "$tmp" ;;
  esac
  mv "$tmp" "$DEST/$file"
  size="$(wc -l < "$DEST/$file") lines"
  case "$file" in
    *.pdf) command -v pdfinfo >/dev/null && size="$(pdfinfo "$DEST/$file" 2>/dev/null | awk '/^Pages:/{print $2}') pages" ;;
  esac
  echo "gather-devdata: got $file ($size) from $pkg"
done

have=$(find "$DEST" -maxdepth 1 -type f ! -name '.*' | wc -l)
echo "gather-devdata: $have of $total documents in $DEST"
[ "$failed" = 0 ] || { echo "gather-devdata: some documents are missing (see above)." >&2; exit 1; }
