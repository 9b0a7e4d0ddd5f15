#!/bin/sh
# Debian/Ubuntu libraries the console and its tests need on a bare machine: Qt's offscreen
# and xcb platforms, a CJK font (Qt and the PDFs), poppler (pdftotext in tests), Xvfb.
# Does nothing when they are present or when this is not a Debian-like system.
set -e
PKGS="libgl1 libegl1 libxkbcommon0 libxkbcommon-x11-0 libglib2.0-0 libfontconfig1 libdbus-1-3
libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-randr0 libxcb-render-util0
libxcb-image0 libxcb-xinerama0 libxcb-xkb1 fonts-wqy-zenhei poppler-utils xvfb xauth"
command -v dpkg-query >/dev/null 2>&1 || exit 0
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "installing Debian packages:$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
