#!/usr/bin/env bash
# Draws Warren's app icon (a burrow with a rabbit's ears rising out of it) with
# ImageMagick, so the artwork is reproducible from text instead of a binary
# blob nobody can edit. Writes build/appicon.png (1024x1024), the Windows
# icon, the Linux icon and the page's favicon. Run from anywhere: ./scripts/make-icon.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v convert >/dev/null || { echo "make-icon: ImageMagick (convert) is required" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
S=1024

# Rounded-square mask, the shape of the whole icon.
convert -size ${S}x${S} xc:none -fill white -draw "roundrectangle 40,40 984,984 210,210" "$tmp/mask.png"

# Artwork on a full square; the mask cuts it to the rounded square.
convert -size ${S}x${S} gradient:'#4a6b8a'-'#9cc3d9' \
  -fill '#7a5234' -draw "ellipse 512,1080 640,420 0,360" \
  -fill '#a8744a' -draw "ellipse 512,1060 560,360 0,360" \
  -fill '#1c130d' -draw "ellipse 512,735 230,92 0,360" \
  -fill '#f4ede4' -stroke '#d8cbbb' -strokewidth 6 \
    -draw "translate 430,520 rotate -14 ellipse 0,0 62,235 0,360" \
    -draw "translate 594,520 rotate 14 ellipse 0,0 62,235 0,360" \
  -stroke none -fill '#e6a9a0' \
    -draw "translate 426,500 rotate -14 ellipse 0,0 28,175 0,360" \
    -draw "translate 598,500 rotate 14 ellipse 0,0 28,175 0,360" \
  -fill '#1c130d' -draw "path 'M 282,735 A 230,92 0 0 0 742,735 Z'" \
  -fill '#c08a5b' -draw "path 'M 262,742 A 250,108 0 0 0 762,742 L 742,735 A 230,92 0 0 1 282,735 Z'" \
  "$tmp/art.png"

convert "$tmp/art.png" "$tmp/mask.png" -alpha off -compose CopyOpacity -composite \
  -define png:exclude-chunks=date,time -strip build/appicon.png

convert build/appicon.png -define icon:auto-resize=256,128,64,48,32,16 build/windows/icon.ico
convert build/appicon.png -resize 256x256 -define png:exclude-chunks=date,time -strip build/linux/warren.png
mkdir -p frontend/public
convert build/appicon.png -resize 64x64 -define png:exclude-chunks=date,time -strip frontend/public/favicon.png
echo "make-icon: wrote build/appicon.png, build/windows/icon.ico, build/linux/warren.png, frontend/public/favicon.png"
