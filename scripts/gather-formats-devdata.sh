#!/usr/bin/env bash
# Gathers the non-PDF dev documents (HTML manuals, Markdown and plain-text READMEs, man pages from
# Debian packages, listed in eval/formats-docs.tsv) into ${MHUB_DEVDATA:-../devdata}/formats/docs/.
# Usage: scripts/gather-formats-devdata.sh [--no-update]
exec "$(dirname "${BASH_SOURCE[0]}")/gather-devdata.sh" --set formats "$@"
