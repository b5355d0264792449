#!/bin/sh
# Regenerates the SVG pictures of this folder from pictures.lyt.
#   sh docs/pictures/make.sh [path/to/lyt]
set -e
dir=$(cd "$(dirname "$0")" && pwd)
lyt=$(cd "$(dirname "${1:-build/lyt}")" && pwd)/$(basename "${1:-build/lyt}")
cd "$dir" && "$lyt" pictures.lyt
