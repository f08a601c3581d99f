#!/usr/bin/env bash
# Renders the six synthetic office-style reports of eval/reports-src/*.fodt (LibreOffice flat ODF text)
# into ${MHUB_DEVDATA:-../devdata}/reports/docs/<name>.pdf, the documents of eval/reports.jsonl:
#   clinical trial protocols (protocol-*)            exported WITHOUT PDF bookmarks (printed TOC only);
#   agency annual performance reports (*-annual-performance-report) exported WITHOUT bookmarks;
#   aviation accident final reports (aviation-report-*) exported with LibreOffice's default bookmarks.
# The questions give physical page numbers, so the rendering must paginate as it did when they were
# written (LibreOffice 7.4, DejaVu fonts); the page count of every PDF is checked against the expected one.
# Needs soffice (LibreOffice >= 7.4, for the JSON filter options). Idempotent: a PDF newer than its
# source is kept. Usage: scripts/make-reports-devdata.sh [--force]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/eval/reports-src"
DEVDATA="$(realpath -m "${MHUB_DEVDATA:-$ROOT/../devdata}")"
DEST="$DEVDATA/reports/docs"
FORCE=0
for arg in "$@"; do
  case "$arg" in
    --force) FORCE=1 ;;
    *) echo "make-reports-devdata: unknown argument '$arg' (usage: scripts/make-reports-devdata.sh [--force])" >&2; exit 2 ;;
  esac
done

SOFFICE="$(command -v soffice || command -v libreoffice || true)"
if [ -z "$SOFFICE" ]; then
  echo "make-reports-devdata: 'soffice' (LibreOffice) not found; install it (Debian: apt-get install libreoffice-writer-nogui) and run again." >&2
  exit 1
fi
[ -d "$SRC" ] || { echo "make-reports-devdata: source folder $SRC not found." >&2; exit 1; }
if command -v fc-list >/dev/null && ! fc-list | grep -q 'DejaVu Sans'; then
  echo "make-reports-devdata: warning: DejaVu fonts not found (Debian: fonts-dejavu); page numbers may differ from eval/reports.jsonl." >&2
fi

# name<TAB>bookmarks (yes/no)<TAB>expected page count
DOCS=$'protocol-hlx207-ulcerative-colitis\tno\t25
protocol-nvb310-lung-cancer\tno\t22
aviation-report-cen19la214\tyes\t13
aviation-report-era20fa087\tyes\t13
smaa-fy2015-annual-performance-report\tno\t15
ndwia-fy2015-annual-performance-report\tno\t15'
NO_BOOKMARKS='pdf:writer_pdf_Export:{"ExportBookmarks":{"type":"boolean","value":"false"}}'

mkdir -p "$DEST"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/mhub-reports.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
# A private LibreOffice profile, so that a running LibreOffice or the user's settings do not interfere.
PROFILE="-env:UserInstallation=file://$WORK/profile"

made=0; kept=0; failed=0
while IFS=$'\t' read -r name bookmarks pages; do
  src="$SRC/$name.fodt"; out="$DEST/$name.pdf"
  if [ ! -f "$src" ]; then echo "make-reports-devdata: missing source $src" >&2; failed=1; continue; fi
  if [ "$FORCE" = 0 ] && [ -s "$out" ] && [ "$out" -nt "$src" ]; then kept=$((kept + 1)); continue; fi
  filter=pdf; [ "$bookmarks" = no ] && filter="$NO_BOOKMARKS"
  if ! "$SOFFICE" "$PROFILE" --headless --convert-to "$filter" --outdir "$WORK/out" "$src" >"$WORK/log" 2>&1 || [ ! -s "$WORK/out/$name.pdf" ]; then
    echo "make-reports-devdata: LibreOffice failed to render $name:" >&2; cat "$WORK/log" >&2; failed=1; continue
  fi
  mv -f "$WORK/out/$name.pdf" "$out"
  made=$((made + 1))
  if command -v pdfinfo >/dev/null; then
    got="$(pdfinfo "$out" | awk '/^Pages:/ {print $2}')"
    if [ "$got" != "$pages" ]; then
      echo "make-reports-devdata: warning: $name.pdf has $got pages, expected $pages (fonts or LibreOffice version differ?); the expected pages of eval/reports.jsonl may not match." >&2
    fi
  fi
done <<<"$DOCS"

echo "make-reports-devdata: $made rendered, $kept already up to date, in $DEST"
exit "$failed"
